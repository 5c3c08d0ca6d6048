import 'server-only';
import { sql, type RawBuilder } from 'kysely';
import type { PerDayOf } from '@/lib/api/overview';
import type { ReadContext } from './context';
import type { Days, Figures, Grain, OverviewActivity } from './overview';
import { openedIds, taggedIds } from './rows';

/**
 * The overview's figures of the collections holding any of some tags (`tag=`, section 16), read from the
 * rows: a tag is the team's, not the sync's, so no roll-up counts by it. The same answer as the roll-ups give
 * for the same rows (overview.ts), in three passes over the tagged rows, each looked up by key: one for the
 * status table and the range's sums (now and the range before), one for the chart's days (only when a chart
 * is drawn), one for the completion times. Days are whole UTC days; amounts per currency, never across.
 */
/** The account's listed collections holding any of `tags`, each once. */
const taggedRows = (ctx: ReadContext, tags: readonly string[]) =>
  ctx.reads
    .selectFrom(taggedIds(ctx, tags).distinct().as('k'))
    .crossJoin('collections')
    .where('collections.account', '=', ctx.account)
    .whereRef('collections.id', '=', 'k.id')
    .where('collections.id', 'not in', openedIds(ctx));

const start = (day: string) => `${day}T00:00:00.000Z`;
const end = (day: string) => `${day}T23:59:59.999Z`;
const within = (column: 'created_at' | 'completed_at', from: string, to: string) =>
  sql`${sql.ref(`collections.${column}`)} >= ${start(from)} and ${sql.ref(`collections.${column}`)} <= ${end(to)}`;
const countWhen = (condition: RawBuilder<unknown>) => sql<number>`sum(case when ${condition} then 1 else 0 end)`;
const sumWhen = (condition: RawBuilder<unknown>) =>
  sql<number>`sum(case when ${condition} then collections.amount_value else 0 end)`;

/** Created and completed in a range: conditions on the row, or every row for all time. */
function rangeSums(days: { from: string; to: string } | null, prefix: string) {
  const created = days ? within('created_at', days.from, days.to) : sql`1 = 1`;
  const completed = days ? within('completed_at', days.from, days.to) : sql`collections.completed_at is not null`;
  return [
    countWhen(created).as(`${prefix}created`),
    countWhen(sql`${created} and collections.completed_at is not null`).as(`${prefix}createdCompleted`),
    countWhen(completed).as(`${prefix}completedCount`),
    sumWhen(completed).as(`${prefix}completedAmount`),
  ];
}

/** The status table (all time) and the range's sums, now and before: one pass, by currency and status. */
async function statusAndSums(ctx: ReadContext, tags: readonly string[], days: Days | null) {
  const rows = await taggedRows(ctx, tags)
    .select([
      'collections.currency as currency',
      'collections.status as status',
      sql<number>`count(*)`.as('created_count'),
      sql<number>`sum(collections.amount_value)`.as('created_amount'),
      ...rangeSums(days, 'n_'),
      ...rangeSums(days?.previous ?? null, 'p_'),
    ])
    .groupBy(['collections.currency', 'collections.status'])
    .execute();
  type Sums = Figures[1][number];
  const current = new Map<string, Sums>();
  const previous = new Map<string, Sums>();
  const add = (into: Map<string, Sums>, currency: string, row: Record<string, unknown>, prefix: string) => {
    const sums = into.get(currency) ?? {
      currency,
      created: 0,
      createdCompleted: 0,
      completedCount: 0,
      completedAmount: 0,
    };
    sums.created += Number(row[`${prefix}created`]);
    sums.createdCompleted += Number(row[`${prefix}createdCompleted`]);
    sums.completedCount += Number(row[`${prefix}completedCount`]);
    sums.completedAmount += Number(row[`${prefix}completedAmount`]);
    into.set(currency, sums);
  };
  for (const row of rows) {
    add(current, row.currency, row, 'n_');
    if (days) add(previous, row.currency, row, 'p_');
  }
  const byStatus = rows.map(({ currency, status, created_count, created_amount }) => ({
    currency,
    status,
    created_count: Number(created_count),
    created_amount: Number(created_amount),
  }));
  return { byStatus, current: [...current.values()], previous: days ? [...previous.values()] : null };
}

/** Code-point order, as the roll-ups' `order by` reads text (SQLite's binary collation, PostgreSQL's "C"). */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const PERIOD_LENGTH: Record<Grain, number> = { d: 10, m: 7, y: 4 };

/** The chart's rows: created by the day (month, year) they were created, amounts by the day completed. */
async function perDay(
  ctx: ReadContext,
  tags: readonly string[],
  grain: Grain,
  chart: { from: string | null; to: string },
  perDayOf: PerDayOf,
): Promise<Figures[3]> {
  if (perDayOf === 'none') return [];
  const byDay = (column: 'created_at' | 'completed_at') => {
    const period = sql<string>`substr(${sql.ref(`collections.${column}`)}, 1, ${sql.lit(PERIOD_LENGTH[grain])})`;
    let q = taggedRows(ctx, tags).where(`collections.${column}`, 'is not', null);
    if (typeof perDayOf === 'object') q = q.where('collections.currency', '=', perDayOf.currency);
    if (grain === 'd' && chart.from)
      q = q.where(`collections.${column}`, '>=', start(chart.from)).where(`collections.${column}`, '<=', end(chart.to));
    return q
      .select([
        period.as('period'),
        'collections.currency as currency',
        'collections.status as status',
        sql<number>`count(*)`.as('n'),
        sql<number>`sum(collections.amount_value)`.as('amount'),
      ])
      .groupBy([period, 'collections.currency', 'collections.status'])
      .execute();
  };
  const [created, completed] = await Promise.all([byDay('created_at'), byDay('completed_at')]);
  const rows = new Map<string, Figures[3][number]>();
  const entry = (r: { period: string; currency: string; status: string }) => {
    const key = `${r.period}\u0000${r.currency}\u0000${r.status}`;
    let row = rows.get(key);
    if (!row)
      rows.set(
        key,
        (row = { period: r.period, currency: r.currency, status: r.status, created_count: 0, completed_amount: 0 }),
      );
    return row;
  };
  for (const r of created) entry(r).created_count += Number(r.n);
  for (const r of completed) entry(r).completed_amount += Number(r.amount);
  return [...rows.values()]
    .filter((r) => r.created_count !== 0 || r.completed_amount !== 0)
    .sort((a, b) => compare(a.period, b.period) || compare(a.currency, b.currency) || compare(a.status, b.status));
}

/** Completion times in the roll-ups' buckets (shared/periods.ts `durationBucket`), computed by the database. */
async function durations(ctx: ReadContext, tags: readonly string[], days: Days | null): Promise<Figures[4]> {
  const seconds =
    ctx.dialect === 'sqlite'
      ? sql<number>`((julianday(collections.completed_at) - julianday(collections.created_at)) * 86400.0)`
      : sql<number>`extract(epoch from (collections.completed_at::timestamptz - collections.created_at::timestamptz))`;
  const bucket = sql<number>`(case when ${seconds} < 1 then 0 else 1 + floor(ln(${seconds}) / ln(1.02)) end)`;
  let q = taggedRows(ctx, tags).where('collections.completed_at', 'is not', null);
  if (days)
    q = q
      .where('collections.completed_at', '>=', start(days.from))
      .where('collections.completed_at', '<=', end(days.to));
  const rows = await q
    .select(['collections.currency as currency', bucket.as('bucket'), sql<number>`count(*)`.as('n')])
    .groupBy(['collections.currency', bucket])
    .execute();
  return rows.map((r) => ({ currency: r.currency, bucket: Number(r.bucket), n: Number(r.n) }));
}

/** The last day anything tagged was created or completed, and the first it was created. */
export async function taggedActivity(ctx: ReadContext, tags: readonly string[]): Promise<OverviewActivity> {
  const row = await taggedRows(ctx, tags)
    .select([
      sql<string | null>`max(collections.created_at)`.as('created'),
      sql<string | null>`max(collections.completed_at)`.as('completed'),
      sql<string | null>`min(collections.created_at)`.as('first'),
    ])
    .executeTakeFirst();
  const latest = [row?.created, row?.completed]
    .filter((d): d is string => Boolean(d))
    .sort()
    .pop();
  return { latestActivity: latest?.slice(0, 10) ?? null, firstDay: row?.first?.slice(0, 10) ?? null };
}

export async function taggedFigures(
  ctx: ReadContext,
  tags: readonly string[],
  days: Days | null,
  grain: Grain,
  chart: { from: string | null; to: string },
  perDayOf: PerDayOf,
): Promise<Figures> {
  const [sums, chartRows, times] = await Promise.all([
    statusAndSums(ctx, tags, days),
    perDay(ctx, tags, grain, chart, perDayOf),
    durations(ctx, tags, days),
  ]);
  return [sums.byStatus, sums.current, sums.previous, chartRows, times];
}
