import 'server-only';
import Link from '@/components/account/account-scope';
import { focusRing } from '@/components/ui/button';
import { RANGE_LABELS, type CurrencyOverview, type Overview, type Range } from '@/lib/api/overview';
import { formatDay, formatDuration } from '@/lib/format/dates';
import { currencyDigits, formatAmount } from '@/lib/format/money';
import { chartBucket, chartPoints, peak, type Bucket } from '@/lib/overview/points';
import { PlainTable } from '@/components/ui/plain-table';
import { LineChart } from './line-chart';
import { completedInRange as completedIn, createdInRange, listHref } from './list-links';

const nf = new Intl.NumberFormat('en');
const pct = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const link = `rounded underline decoration-zinc-400 underline-offset-2 hover:decoration-current ${focusRing}`;

/** "in the last 30 days (24 Oct – 22 Nov 2026)", or "since Jan 2025" for all time. */
function rangePhrase(range: Range, span: Overview['range']): string {
  if (range === 'all') return span.from ? `since ${formatDay(span.from, 'month')}` : 'so far';
  return `in the ${RANGE_LABELS[range].toLowerCase()} (${formatDay(span.from!)} – ${formatDay(span.to, 'full')})`;
}

function Change({ current, previous, range }: { current: number; previous: number; range: Range }) {
  const before = `the previous ${RANGE_LABELS[range].replace('Last ', '')}`;
  if (!previous) return <>{current ? `none in ${before}` : `none in ${before} either`}</>;
  const change = (current - previous) / previous;
  const word = change > 0 ? 'up' : change < 0 ? 'down' : 'unchanged';
  return (
    <>
      <span aria-hidden="true">{change > 0 ? '▲ ' : change < 0 ? '▼ ' : ''}</span>
      {word === 'unchanged' ? 'unchanged' : `${word} ${pct.format(Math.abs(change))}`} on {before}
    </>
  );
}

function Figure({ term, value, note, href }: { term: string; value: string; note: React.ReactNode; href?: string }) {
  return (
    <div className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
      <dt className="text-xs font-medium text-zinc-600 dark:text-zinc-400">{term}</dt>
      <dd className="mt-1 text-lg font-semibold tabular-nums">
        {href ? (
          <Link href={href} className={link}>
            {value}
          </Link>
        ) : (
          value
        )}
      </dd>
      <dd className="mt-0.5 text-xs text-zinc-700 dark:text-zinc-300">{note}</dd>
    </div>
  );
}

/** The id of a currency's section (for the page's jump list). */
export const currencyAnchor = (currency: string) => `currency-${currency.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** One currency's figures, its collections by status, and its two charts (the overview's `?currency=`). */
export function CurrencyOverviewSection({
  figures: c,
  overview,
  range,
  minorUnits,
  closeHref,
}: {
  figures: CurrencyOverview;
  overview: Overview;
  range: Range;
  minorUnits: boolean;
  /** Where "Hide details" leads: the table of currencies alone. */
  closeHref: string;
}) {
  const money = (value: number) => formatAmount({ value, currency: c.currency }, { minorUnits });
  const axisMoney = (value: number) => compact.format(minorUnits ? value / 10 ** currencyDigits(c.currency) : value);
  const pending = c.byStatus.find((s) => s.status === 'pending');
  const phrase = rangePhrase(range, overview.range);
  const bucket: Bucket = chartBucket(overview.chart, overview.bucket);
  const created = chartPoints(overview.perDay, {
    currency: c.currency,
    field: 'created',
    range: overview.chart,
    bucket,
  });
  const completed = chartPoints(overview.perDay, {
    currency: c.currency,
    field: 'completedAmount',
    range: overview.chart,
    bucket,
  });
  const createdPeak = peak(created.points);
  const completedPeak = peak(completed.points);
  const peakDay = (date: string) => formatDay(date, bucket === 'day' ? 'full' : bucket);
  const id = currencyAnchor(c.currency);
  const inRange = createdInRange(range, overview.range);
  const completedInRange = completedIn(range, overview.range);

  return (
    <section aria-labelledby={id} className="mt-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id={id} className="text-lg font-semibold tracking-tight">
          {c.currency}
        </h2>
        <Link href={closeHref} className={`text-sm ${link}`}>
          Hide {c.currency} details
        </Link>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Figure
          term="Outstanding (pending)"
          value={money(pending?.amount ?? 0)}
          href={pending ? listHref({ status: ['pending'], currency: [c.currency] }, overview.tag) : undefined}
          note={`${nf.format(pending?.count ?? 0)} pending collection${pending?.count === 1 ? '' : 's'}, all time`}
        />
        <Figure
          term={`Completed ${range === 'all' ? 'all time' : RANGE_LABELS[range].toLowerCase()}`}
          value={money(c.completed.amount)}
          href={listHref({ currency: [c.currency], ...completedInRange }, overview.tag)}
          note={
            <>
              {nf.format(c.completed.count)} completed
              {c.completedPrevious ? (
                <>
                  {' · '}
                  <Change current={c.completed.amount} previous={c.completedPrevious.amount} range={range} />
                  {` (${money(c.completedPrevious.amount)})`}
                </>
              ) : null}
            </>
          }
        />
        <Figure
          term="Completion rate"
          value={c.completionRate === null ? '—' : pct.format(c.completionRate)}
          href={listHref({ currency: [c.currency], ...inRange }, overview.tag)}
          note={`of ${nf.format(c.created)} created ${range === 'all' ? 'all time' : RANGE_LABELS[range].toLowerCase()}`}
        />
        <Figure
          term="Median time to complete"
          value={c.medianTimeToCompleteMs === null ? '—' : formatDuration(c.medianTimeToCompleteMs)}
          note={`from created to completed, of ${nf.format(c.completed.count)} completed ${
            range === 'all' ? 'all time' : RANGE_LABELS[range].toLowerCase()
          }`}
        />
      </dl>

      <PlainTable
        caption={`${c.currency} collections by status, all time`}
        captionVisible
        variant="boxed"
        className="mt-4"
        tableClassName="tabular-nums"
        cellClassName="px-3 py-2"
        bodyClassName=""
        headers={['Status', { label: 'Collections', right: true }, { label: 'Amount', right: true }]}
      >
        {c.byStatus.map((s) => {
          const href = listHref({ status: [s.status], currency: [c.currency] }, overview.tag);
          return (
            <tr key={s.status} className="border-b border-zinc-100 last:border-0 dark:border-zinc-900">
              <th scope="row" className="px-3 py-2 font-normal">
                {s.status}
              </th>
              <td className="px-3 py-2 text-right">
                <Link href={href} className={link}>
                  {nf.format(s.count)}
                </Link>
              </td>
              <td className="px-3 py-2 text-right">
                <Link href={href} className={link}>
                  {money(s.amount)}
                </Link>
              </td>
            </tr>
          );
        })}
      </PlainTable>

      <div className="mt-4 grid grid-cols-1 gap-4 lg:grid-cols-2">
        <LineChart
          id={`${id}-created`}
          title={`${c.currency}: collections created per ${bucket}`}
          summary={`${nf.format(c.created)} created ${phrase}${
            createdPeak
              ? `; most ${bucket === 'day' ? 'on' : 'in'} ${peakDay(createdPeak.date)} (${nf.format(createdPeak.total)})`
              : ''
          }.`}
          series={created.series}
          points={created.points}
          bucket={bucket}
          format={(n) => nf.format(n)}
          unit="collections created"
        />
        <LineChart
          id={`${id}-completed`}
          title={`${c.currency}: amount completed per ${bucket}`}
          summary={`${money(c.completed.amount)} completed ${phrase}${
            completedPeak
              ? `; most ${bucket === 'day' ? 'on' : 'in'} ${peakDay(completedPeak.date)} (${money(completedPeak.total)})`
              : ''
          }.`}
          series={completed.series}
          points={completed.points}
          bucket={bucket}
          format={money}
          formatAxis={axisMoney}
          unit={`amount completed (${c.currency})`}
        />
      </div>
    </section>
  );
}
