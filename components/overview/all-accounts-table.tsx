import 'server-only';
import { focusRing } from '@/components/ui/button';
import { PlainTable } from '@/components/ui/plain-table';
import { withAccount } from '@/lib/accounts/href';
import {
  overviewHref,
  RANGE_LABELS,
  type AccountOverview,
  type CurrencyOverview,
  type Range,
} from '@/lib/api/overview';
import { formatAmount } from '@/lib/format/money';
import { completedInRange, listHref } from './list-links';

const nf = new Intl.NumberFormat('en');
const pct = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });
const link = `rounded underline decoration-zinc-400 underline-offset-2 hover:decoration-current ${focusRing}`;
const note = 'block text-xs font-normal text-zinc-600 dark:text-zinc-400';

type Line = {
  account: AccountOverview['account'];
  c: CurrencyOverview;
  span: NonNullable<AccountOverview['overview']>['range'];
};

/**
 * Every account the user may see, per currency (never summed across currencies): each account's outstanding,
 * collected and completion rate, linked to its own rows, and a line for all of them together. A median cannot
 * be added up, so the together line has none.
 */
export function AllAccountsTable({
  accounts,
  range,
  minorUnits,
}: {
  accounts: AccountOverview[];
  range: Range;
  minorUnits: boolean;
}) {
  const within = range === 'all' ? 'all time' : RANGE_LABELS[range].toLowerCase();
  const byCurrency = new Map<string, Line[]>();
  for (const { account, overview } of accounts)
    for (const c of overview?.currencies ?? [])
      byCurrency.set(c.currency, [...(byCurrency.get(c.currency) ?? []), { account, c, span: overview!.range }]);
  const failed = accounts.filter((a) => a.error);
  return (
    <>
      {failed.map((a) => (
        <p key={a.account.id} role="status" className="mt-2 text-sm text-amber-800 dark:text-amber-300">
          {a.account.name}: {a.error}
        </p>
      ))}
      {[...byCurrency].map(([currency, lines]) => {
        const money = (value: number) => formatAmount({ value, currency }, { minorUnits });
        const pending = (c: CurrencyOverview) =>
          c.byStatus.find((s) => s.status === 'pending') ?? { count: 0, amount: 0 };
        const created = lines.reduce((n, l) => n + l.c.created, 0);
        const completedOfCreated = lines.reduce((n, l) => n + (l.c.completionRate ?? 0) * l.c.created, 0);
        return (
          <PlainTable
            key={currency}
            label={`${currency}, every account`}
            caption={`${currency}, every account, ${within}`}
            captionVisible
            className="mt-4"
            tableClassName="tabular-nums"
            cellClassName="px-3 py-2"
            headers={[
              'Account',
              { label: 'Outstanding', right: true },
              { label: `Collected, ${within}`, right: true },
              { label: 'Completion rate', right: true },
            ]}
          >
            {lines.map(({ account, c, span }) => (
              <tr key={account.id}>
                <th scope="row" className="px-3 py-2 font-semibold">
                  <a className={link} href={withAccount(overviewHref({ range, currency }), account.id)}>
                    {account.name}
                  </a>
                  {account.mode === 'test' ? <span className={note}>Test data</span> : null}
                </th>
                <td className="px-3 py-2 text-right">
                  <a
                    className={link}
                    href={withAccount(listHref({ status: ['pending'], currency: [currency] }), account.id)}
                  >
                    {money(pending(c).amount)}
                  </a>
                  <span className={note}>{`${nf.format(pending(c).count)} pending`}</span>
                </td>
                <td className="px-3 py-2 text-right">
                  <a
                    className={link}
                    href={withAccount(listHref({ currency: [currency], ...completedInRange(range, span) }), account.id)}
                  >
                    {money(c.completed.amount)}
                  </a>
                  <span className={note}>{`${nf.format(c.completed.count)} completed`}</span>
                </td>
                <td className="px-3 py-2 text-right">
                  {c.completionRate === null ? '—' : pct.format(c.completionRate)}
                  <span className={note}>{`of ${nf.format(c.created)} created`}</span>
                </td>
              </tr>
            ))}
            <tr className="border-t-2 border-zinc-300 font-semibold dark:border-zinc-600">
              <th scope="row" className="px-3 py-2">
                All accounts
              </th>
              <td className="px-3 py-2 text-right">
                {money(lines.reduce((n, l) => n + pending(l.c).amount, 0))}
                <span
                  className={note}
                >{`${nf.format(lines.reduce((n, l) => n + pending(l.c).count, 0))} pending`}</span>
              </td>
              <td className="px-3 py-2 text-right">
                {money(lines.reduce((n, l) => n + l.c.completed.amount, 0))}
                <span
                  className={note}
                >{`${nf.format(lines.reduce((n, l) => n + l.c.completed.count, 0))} completed`}</span>
              </td>
              <td className="px-3 py-2 text-right">
                {created ? pct.format(completedOfCreated / created) : '—'}
                <span className={note}>{`of ${nf.format(created)} created`}</span>
              </td>
            </tr>
          </PlainTable>
        );
      })}
    </>
  );
}
