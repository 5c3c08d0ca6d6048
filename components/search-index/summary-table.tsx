import { StatusBadge } from '@/components/ui/badge';
import { CopyButton } from '@/components/ui/copy-button';
import { IdText } from '@/components/ui/id-text';
import { DateTime } from '@/components/ui/date-time';
import type { CollectionSummary, MatchedField } from '@/lib/api/summary';
import { formatAmount } from '@/lib/format/money';

/** A row the index serves, with what a search matched when it was a search. */
export type SummaryRow = CollectionSummary & { matched?: MatchedField[] };

const MATCHED: Record<MatchedField, string> = {
  id: 'ID',
  email: 'E-mail',
  phone: 'Phone',
  phoneLast4: 'Phone, last 4',
  reference: 'Reference',
  name: 'Name',
};

/**
 * Index-served rows (a filtered list, search results), rendered on the server:
 * every row a real link to the live record.
 */
export function SummaryTable({
  rows,
  caption,
  minorUnits,
  matched = false,
}: {
  rows: SummaryRow[];
  caption: string;
  minorUnits: boolean;
  matched?: boolean;
}) {
  return (
    <div
      role="region"
      aria-label="Collections table"
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-zinc-200 focus-visible:outline-2 focus-visible:outline-sky-600 dark:border-zinc-800"
    >
      <table className="rows-as-cards w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Reference
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Contact
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Amount
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Status
            </th>
            {matched ? (
              <th scope="col" className="px-3 py-2 font-medium">
                Matched on
              </th>
            ) : null}
            <th scope="col" className="px-3 py-2 font-medium">
              Created
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              ID
            </th>
          </tr>
        </thead>
        <tbody className="cells divide-y divide-zinc-200 dark:divide-zinc-800">
          {rows.map((row) => (
            <tr key={row.id} className="hover:bg-zinc-50 dark:hover:bg-zinc-900">
              <td data-col="reference">
                <a href={`/collections/${row.id}`} className="link-strong ref">
                  {row.reference || <span className="italic">(no reference)</span>}
                </a>
              </td>
              <td data-col="contact">
                <span className="contact">{`${row.contact.firstName} ${row.contact.lastName}`.trim() || '—'}</span>
              </td>
              <td data-col="amount" className="text-right tabular-nums">
                {formatAmount(row.amount, { minorUnits })}
              </td>
              <td data-col="status">
                <StatusBadge status={row.status} />
              </td>
              {matched ? <td data-col="matched">{(row.matched ?? []).map((m) => MATCHED[m]).join(', ')}</td> : null}
              <td data-col="createdAt">
                <DateTime iso={row.createdAt} short />
              </td>
              <td data-col="id">
                <IdText id={row.id} />
                <CopyButton value={row.id} label={`id ${row.id}`} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
