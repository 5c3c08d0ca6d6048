import 'server-only';
import { sql } from 'kysely';
import {
  RANGE_DAYS,
  type CurrencyOverview,
  type Overview,
  type PerDay,
  type PerDayOf,
  type Range,
} from '@/lib/api/overview';
import { histogramMedianMs } from '../shared/periods';
import type { ReadContext } from './context';
import { taggedActivity, taggedFigures } from './overview-tagged';

/**
 * The overview's figures, read from the roll-ups (rollups.ts), never from the
 * rows: a few hundred roll-up rows per range whatever the account's size.
 * Days are whole UTC days; amounts are summed per currency, never across.
 * Narrowed to some tags, from the tagged rows instead (overview-tagged.ts).
 */
const DAY_MS = 86_400_000;
const MAX_MONTHS = 120;
/** All time is drawn by day when its data spans at most this many days. */
const MAX_DAYS = 92;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function rangeDays(range: Exclude<Range, 'all'>, now: number) {
  const today = Date.parse(`${dayOf(now)}T00:00:00.000Z`);
  const days = RANGE_DAYS[range];
  return {
    from: dayOf(today - (days - 1) * DAY_MS),
    to: dayOf(today),
    previous: { from: dayOf(today - (2 * days - 1) * DAY_MS), to: dayOf(today - days * DAY_MS) },
  };
}

type OverviewReads = Pick<ReadContext, 'reads' | 'account'>;
export type Grain = 'd' | 'm' | 'y';
export type Days = ReturnType<typeof rangeDays>;
export type OverviewActivity = { latestActivity: string | null; firstDay: string | null };
type Sums = {
  currency: string;
  created: number;
  createdCompleted: number;
  completedCount: number;
  completedAmount: number;
};
/** What an overview is drawn from: the status table, the range's sums now and before, the chart, the times. */
export type Figures = [
  byStatus: { currency: string; status: string; created_count: number; created_amount: number }[],
  current: Sums[],
  previous: Sums[] | null,
  perDay: { period: string; currency: string; status: string; created_count: number; completed_amount: number }[],
  durations: { currency: string; bucket: number; n: number }[],
];

const rollups = ({ reads, account }: OverviewReads) => reads.selectFrom('rollups').where('account', '=', account);

/** Created and completed sums per currency within periods of one grain (or the whole account). */
function sums(store: OverviewReads, grain: 'd' | 'a', from?: string, to?: string) {
  let q = rollups(store).where('grain', '=', grain);
  if (from && to) q = q.where('period', '>=', from).where('period', '<=', to);
  return q
    .select([
      'currency',
      sql<number>`sum(created_count)`.as('created'),
      sql<number>`sum(created_completed)`.as('createdCompleted'),
      sql<number>`sum(completed_count)`.as('completedCount'),
      sql<number>`sum(completed_amount)`.as('completedAmount'),
    ])
    .groupBy('currency')
    .execute();
}

/**
 * The last day anything was created or completed (a range that holds nothing says where the data is), and
 * for all time the first such day: all time is drawn from it to the last.
 */
async function activity(store: OverviewReads, all: boolean): Promise<OverviewActivity> {
  const active = () =>
    rollups(store)
      .where('grain', '=', 'd')
      .where((w) => w.or([w('created_count', '!=', 0), w('completed_count', '!=', 0)]));
  const [latestRow, firstRow] = await Promise.all([
    active()
      .select(sql<string | null>`max(period)`.as('latest'))
      .executeTakeFirst(),
    all
      ? active()
          .select(sql<string | null>`min(period)`.as('first'))
          .executeTakeFirst()
      : null,
  ]);
  return { latestActivity: latestRow?.latest ?? null, firstDay: firstRow?.first ?? null };
}

/**
 * The chart's buckets from its span: a few weeks of data by day, not one spike in a monthly chart; by month
 * up to ten years, by year past that (a chart of a few hundred points at most).
 */
function grainOf(all: boolean, chart: { from: string | null; to: string }): Grain {
  const spanDays = chart.from ? (Date.parse(chart.to) - Date.parse(chart.from)) / DAY_MS + 1 : 0;
  const months = chart.from
    ? (Number(chart.to.slice(0, 4)) - Number(chart.from.slice(0, 4))) * 12 +
      Number(chart.to.slice(5, 7)) -
      Number(chart.from.slice(5, 7))
    : 0;
  return !all || spanDays <= MAX_DAYS ? 'd' : months > MAX_MONTHS ? 'y' : 'm';
}

/** The roll-up rows an overview is drawn from, read side by side. */
function figures(
  store: OverviewReads,
  days: Days | null,
  grain: Grain,
  chart: { from: string | null; to: string },
  perDayOf: PerDayOf,
): Promise<Figures> {
  const all = days === null;
  const perDay = async () => {
    if (perDayOf === 'none') return [];
    let q = rollups(store).where('grain', '=', grain);
    if (typeof perDayOf === 'object') q = q.where('currency', '=', perDayOf.currency);
    if (grain === 'd' && chart.from) q = q.where('period', '>=', chart.from).where('period', '<=', chart.to);
    return q
      .where((eb) => eb.or([eb('created_count', '!=', 0), eb('completed_amount', '!=', 0)]))
      .select(['period', 'currency', 'status', 'created_count', 'completed_amount'])
      .orderBy('period')
      .orderBy('currency')
      .orderBy('status')
      .execute();
  };
  const durations = () => {
    let q = store.reads
      .selectFrom('rollup_durations')
      .where('account', '=', store.account)
      .where('grain', '=', all ? 'a' : 'd');
    if (days) q = q.where('period', '>=', days.from).where('period', '<=', days.to);
    return q
      .select(['currency', 'bucket', sql<number>`sum(count)`.as('n')])
      .groupBy(['currency', 'bucket'])
      .execute();
  };
  return Promise.all([
    rollups(store)
      .where('grain', '=', 'a')
      .where('created_count', '!=', 0)
      .select(['currency', 'status', 'created_count', 'created_amount'])
      .execute(),
    days ? sums(store, 'd', days.from, days.to) : sums(store, 'a'),
    days ? sums(store, 'd', days.previous.from, days.previous.to) : Promise.resolve(null),
    perDay(),
    durations(),
  ]);
}

/** Each currency's figures, the largest first; amounts are never summed across currencies. */
function perCurrency(all: boolean, [byStatus, current, previous, , durations]: Figures): CurrencyOverview[] {
  const currencies = new Map<string, CurrencyOverview>();
  const entry = (currency: string) => {
    let c = currencies.get(currency);
    if (!c)
      currencies.set(
        currency,
        (c = {
          currency,
          byStatus: [],
          completed: { count: 0, amount: 0 },
          completedPrevious: all ? null : { count: 0, amount: 0 },
          completionRate: null,
          medianTimeToCompleteMs: null,
          created: 0,
        }),
      );
    return c;
  };
  for (const row of byStatus)
    entry(row.currency).byStatus.push({
      status: row.status,
      count: Number(row.created_count),
      amount: Number(row.created_amount),
    });
  for (const row of current) {
    const c = entry(row.currency);
    c.created = Number(row.created);
    c.completed = { count: Number(row.completedCount), amount: Number(row.completedAmount) };
    c.completionRate = c.created ? Number(row.createdCompleted) / c.created : null;
  }
  for (const row of previous ?? [])
    entry(row.currency).completedPrevious = {
      count: Number(row.completedCount),
      amount: Number(row.completedAmount),
    };
  const histograms = new Map<string, Array<[number, number]>>();
  for (const row of durations) {
    if (!histograms.has(row.currency)) histograms.set(row.currency, []);
    histograms.get(row.currency)!.push([Number(row.bucket), Number(row.n)]);
  }
  for (const [currency, histogram] of histograms) entry(currency).medianTimeToCompleteMs = histogramMedianMs(histogram);
  const total = (c: CurrencyOverview) => c.byStatus.reduce((n, s) => n + s.count, 0);
  return [...currencies.values()]
    .filter((c) => c.byStatus.length || c.completed.count || c.completedPrevious?.count)
    .map((c) => ({
      ...c,
      byStatus: c.byStatus.sort((a, b) => b.count - a.count || a.status.localeCompare(b.status)),
    }))
    .sort((a, b) => total(b) - total(a) || a.currency.localeCompare(b.currency));
}

export function createOverview(store: ReadContext) {
  return async function overview(
    range: Range,
    now: number,
    perDayOf: PerDayOf = 'every',
    tags: readonly string[] = [],
  ): Promise<Omit<Overview, 'asOf' | 'coverage' | 'changes'>> {
    const all = range === 'all';
    const days = all ? null : rangeDays(range, now);
    const to = dayOf(now);
    const { latestActivity, firstDay } = tags.length ? await taggedActivity(store, tags) : await activity(store, all);
    const chart = days
      ? { from: days.from, to: days.to }
      : { from: firstDay, to: firstDay && latestActivity ? latestActivity : to };
    const grain = grainOf(all, chart);
    const read = tags.length
      ? await taggedFigures(store, tags, days, grain, chart, perDayOf)
      : await figures(store, days, grain, chart, perDayOf);
    const perDay: PerDay[] = read[3].map((row) => ({
      date: grain === 'd' ? row.period : grain === 'm' ? `${row.period}-01` : `${row.period}-01-01`,
      currency: row.currency,
      status: row.status,
      created: Number(row.created_count),
      completedAmount: Number(row.completed_amount),
    }));
    return {
      range: { from: days ? days.from : firstDay, to: days ? days.to : to },
      latestActivity,
      chart,
      bucket: grain === 'd' ? 'day' : grain === 'm' ? 'month' : 'year',
      currencies: perCurrency(all, read),
      perDay,
    };
  };
}

export type IndexOverview = ReturnType<typeof createOverview>;
