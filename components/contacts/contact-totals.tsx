import Link from '@/components/account/account-scope';
import { formatAmount } from '@/lib/format/money';
import { contactPath, viewHref, defaults, listStateSchema } from '@/lib/api/list-state';
import type { ContactTotalsRow } from '@/lib/api/contacts';

const nf = new Intl.NumberFormat('en');

/**
 * A contact's totals per currency (contract section 14): what is pending (owed), completed (paid) and in
 * every other status, each a count and an amount, each linking to those collections in its list below.
 */
export function ContactTotals({
  contactId,
  totals,
  minorUnits,
}: {
  contactId: string;
  totals: ContactTotalsRow[];
  minorUnits: boolean;
}) {
  const path = contactPath(contactId);
  const base = defaults(listStateSchema);
  const cell = (currency: string, bucket: { count: number; amount: number }, status?: string) =>
    bucket.count === 0 ? (
      <span className="text-zinc-500 dark:text-zinc-400">—</span>
    ) : (
      <>
        {status ? (
          <Link
            href={viewHref(path, { ...base, currency: [currency], status: [status] })}
            className="font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
          >
            {formatAmount({ value: bucket.amount, currency }, { minorUnits })}
          </Link>
        ) : (
          <span className="font-medium">{formatAmount({ value: bucket.amount, currency }, { minorUnits })}</span>
        )}
        <span className="block text-xs text-zinc-600 dark:text-zinc-400">
          {nf.format(bucket.count)} {bucket.count === 1 ? 'collection' : 'collections'}
        </span>
      </>
    );
  return (
    <table className="w-full max-w-2xl text-sm">
      <caption className="sr-only">Totals by currency</caption>
      <thead>
        <tr className="border-b border-zinc-200 text-left text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
          <th scope="col" className="py-1.5 pr-4 font-medium">
            Currency
          </th>
          <th scope="col" className="py-1.5 pr-4 text-right font-medium">
            Pending
          </th>
          <th scope="col" className="py-1.5 pr-4 text-right font-medium">
            Completed
          </th>
          <th scope="col" className="py-1.5 text-right font-medium">
            Other statuses
          </th>
        </tr>
      </thead>
      <tbody>
        {totals.map((t) => (
          <tr key={t.currency} className="border-b border-zinc-100 align-top last:border-0 dark:border-zinc-900">
            <th scope="row" className="py-2 pr-4 text-left font-medium">
              {t.currency}
            </th>
            <td className="py-2 pr-4 text-right tabular-nums">{cell(t.currency, t.pending, 'pending')}</td>
            <td className="py-2 pr-4 text-right tabular-nums">{cell(t.currency, t.completed, 'completed')}</td>
            <td className="py-2 text-right tabular-nums">{cell(t.currency, t.other)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
