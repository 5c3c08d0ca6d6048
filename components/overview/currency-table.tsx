import 'server-only';
import Link from '@/components/account/account-scope';
import { focusRing } from '@/components/ui/button';
import { PlainTable } from '@/components/ui/plain-table';
import { overviewHref, RANGE_LABELS, type CurrencyOverview, type Overview, type Range } from '@/lib/api/overview';
import { formatDuration } from '@/lib/format/dates';
import { formatAmount } from '@/lib/format/money';
import { currencyAnchor } from './currency-overview';
import { completedInRange, listHref } from './list-links';

const nf = new Intl.NumberFormat('en');
const pct = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });
const link = `rounded underline decoration-zinc-400 underline-offset-2 hover:decoration-current ${focusRing}`;
const note = 'block text-xs font-normal text-zinc-600 dark:text-zinc-400';

/** The table's accessible name (its caption): "Currencies, last 30 days". */
export const currencyTableName = (range: Range) =>
  `Currencies, ${range === 'all' ? 'all time' : RANGE_LABELS[range].toLowerCase()}`;

/**
 * The overview at a glance: a row per currency (largest first), its outstanding amount (pending, all
 * time), what was collected in the range, the completion rate of those created in it and the median time
 * to complete. The currency leads to its cards and charts beneath (`?currency=`); each amount to the
 * collections it sums. Figures are never summed across currencies, so there is no total row.
 */
export function CurrencyTable({
  overview,
  range,
  selected,
  minorUnits,
}: {
  overview: Overview;
  range: Range;
  selected: string | undefined;
  minorUnits: boolean;
}) {
  const within = range === 'all' ? 'all time' : RANGE_LABELS[range].toLowerCase();
  return (
    <PlainTable
      label={currencyTableName(range)}
      caption={currencyTableName(range)}
      className="mt-4"
      tableClassName="tabular-nums"
      cellClassName="px-3 py-2"
      headers={[
        'Currency',
        { label: 'Outstanding', right: true },
        { label: `Collected, ${within}`, right: true },
        { label: 'Completion rate', right: true },
        { label: 'Median time to complete', right: true },
      ]}
    >
      {overview.currencies.map((c) => (
        <CurrencyRow
          key={c.currency}
          c={c}
          overview={overview}
          range={range}
          current={c.currency === selected}
          minorUnits={minorUnits}
        />
      ))}
    </PlainTable>
  );
}

function CurrencyRow({
  c,
  overview,
  range,
  current,
  minorUnits,
}: {
  c: CurrencyOverview;
  overview: Overview;
  range: Range;
  current: boolean;
  minorUnits: boolean;
}) {
  const money = (value: number) => formatAmount({ value, currency: c.currency }, { minorUnits });
  const pending = c.byStatus.find((s) => s.status === 'pending');
  const detail = `${overviewHref({ range, currency: c.currency, tag: overview.tag })}#${currencyAnchor(c.currency)}`;
  return (
    <tr className={current ? 'bg-sky-50 dark:bg-sky-950' : undefined}>
      <th scope="row" className="px-3 py-2 font-semibold">
        <Link
          href={detail}
          aria-current={current ? 'page' : undefined}
          aria-label={`${c.currency}: cards and charts`}
          className={link}
        >
          {c.currency}
        </Link>
      </th>
      <td className="px-3 py-2 text-right">
        {pending ? (
          <Link href={listHref({ status: ['pending'], currency: [c.currency] }, overview.tag)} className={link}>
            {money(pending.amount)}
          </Link>
        ) : (
          money(0)
        )}
        <span className={note}>{`${nf.format(pending?.count ?? 0)} pending`}</span>
      </td>
      <td className="px-3 py-2 text-right">
        <Link
          href={listHref({ currency: [c.currency], ...completedInRange(range, overview.range) }, overview.tag)}
          className={link}
        >
          {money(c.completed.amount)}
        </Link>
        <span className={note}>{`${nf.format(c.completed.count)} completed`}</span>
      </td>
      <td className="px-3 py-2 text-right">
        {c.completionRate === null ? '—' : pct.format(c.completionRate)}
        <span className={note}>{`of ${nf.format(c.created)} created`}</span>
      </td>
      <td className="px-3 py-2 text-right">
        {c.medianTimeToCompleteMs === null ? '—' : formatDuration(c.medianTimeToCompleteMs)}
      </td>
    </tr>
  );
}
