import 'server-only';
import type { Sort } from '@/lib/api/list-state';
import { sql, type ExpressionBuilder } from 'kysely';
import { candidates, firstIds, nameCount, otherArms, referenceIds } from './candidates';
import type { ReadContext } from './context';
import { matchesRow } from './match';
import { inOrder } from './page';
import { referenceRange, SearchPlan } from './plan';
import { ListRows, NARROW_COLUMNS, NarrowRow, SearchDb, SORT_COLUMN } from './rows-types';
import { LED_OTHERS_AT_MOST, WALK_READS_AT_LEAST, WALK_READS_PER_EXPECTED } from './tuning';

/**
 * How many rows a plan matches (below `walkFrom`, at most that many: the caller then looks the page up and
 * counts it there), and whether its arms but the reference's match few (at most LED_OTHERS_AT_MOST). Its
 * reference's rows are one range of their index, counted there; the other arms' few ids are asked whether
 * the range holds them already. Only when those are many are all the arms'
 * ids merged and counted (a reference prefix of 55,024 rows: 44 ms on PostgreSQL, 15 ms counted in its range).
 */
export async function countMatches(ctx: ReadContext, plan: SearchPlan): Promise<{ count: number; fewOthers: boolean }> {
  const arms = otherArms(ctx, plan);
  const [lo, op, hi] = referenceRange(plan);
  // One name word and nothing else: its token's rows, each id once.
  const oneWord =
    plan.referenceNone && arms.length === 1 && plan.names.length === 1 ? ctx.keys.token('name', plan.names[0]!) : null;
  // PostgreSQL keeps each name token's count (`nameCount`): one row read, not the range counted.
  const counted = oneWord !== null && ctx.dialect === 'postgres' ? await nameCount(ctx, oneWord) : null;
  // Counted first by their ids alone: a common name's arm stops at the bound without reading a row.
  const others =
    counted !== null
      ? Math.min(counted, LED_OTHERS_AT_MOST + 1)
      : arms.length
        ? Number(
            (
              await ctx.reads
                .selectFrom(firstIds(ctx, arms, LED_OTHERS_AT_MOST + 1).as('o'))
                .select(sql<number | string>`count(*)`.as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          )
        : 0;
  if (others <= LED_OTHERS_AT_MOST) {
    // The plan knows when its reference's range is empty (`planOf` counted it): a round trip fewer.
    const inRange = plan.referenceNone
      ? 0
      : (
          await referenceIds(ctx, plan)
            .clearSelect()
            .select(sql<number | string>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n;
    // At most this many: below the walk's threshold the page is looked up, and counted exactly there
    // (a first and last name's 2,109 rows were read once more here, 16-23 ms on PostgreSQL).
    const atMost = Number(inRange) + others;
    if (atMost < ctx.tuning.walkFrom || !others) return { count: atMost, fewOthers: true };
    // The other arms' rows whose reference is in the range too are counted once.
    const both = await ctx.reads
      .selectFrom(firstIds(ctx, arms, LED_OTHERS_AT_MOST).as('o'))
      .crossJoin('collections')
      .where('collections.account', '=', ctx.account)
      .whereRef('collections.id', '=', 'o.id')
      .where('collections.reference_key', '>=', lo)
      .where('collections.reference_key', op, hi)
      .select(sql<number | string>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    return { count: atMost - Number(both.n), fewOthers: true };
  }
  // One name word and nothing else: its token's key range, each id once (a common first name's 41,483
  // ids were grouped to be counted: 8.8 ms against 4 at 1,000,000 on SQLite).
  if (oneWord !== null) return { count: counted ?? (await nameCount(ctx, oneWord)), fewOthers: false };
  const { n } = await ctx.reads
    .with('matches', () => candidates(ctx, plan))
    .selectFrom('matches')
    .select(sql<number | string>`count(distinct matches.id)`.as('n'))
    .executeTakeFirstOrThrow();
  return { count: Number(n), fewOthers: false };
}

/**
 * A page whose matches are mostly one reference prefix's, in creation order: the prefix's first rows in
 * that order read from the references' index, which holds each row's creation time (migration 0013),
 * with the other arms' few matches beside them, and the page sorted from those. For a prefix of the
 * oldest records (`INV-2026-1`, 55,022 of 1,000,000 collections), which no walk of the newest-first order
 * reaches, every match's time was looked up by its key instead: ~110 ms of 170. Null in the other orders
 * (the caller looks the page up). The caller knows the other arms match few rows (`countMatches`).
 */
export async function ledByReference(ctx: ReadContext, plan: SearchPlan, sort: Sort, offset: number, limit: number) {
  const [column, direction] = SORT_COLUMN[sort];
  if (column !== 'created_at') return null;
  const first = referenceIds(ctx, plan)
    // Ordered by an expression, not the column: PostgreSQL then cannot walk the creation-time index
    // backwards, betting that the range's rows come early (they come last: 800,009 rows read, 387 ms).
    .orderBy(sql`collections.created_at || ''`, direction)
    .orderBy('collections.id', direction)
    .limit(offset + limit);
  let led = ctx.reads.selectFrom(first.as('r')).select('r.id');
  for (const arm of otherArms(ctx, plan)) led = led.union(arm);
  const joined = ctx.reads
    .selectFrom(led.as('led'))
    .crossJoin('collections')
    .where('collections.account', '=', ctx.account)
    .whereRef('collections.id', '=', 'led.id');
  return (await inOrder(
    joined.select(NARROW_COLUMNS) as unknown as ListRows,
    sort,
    offset,
    limit,
  ).execute()) as NarrowRow[];
}

/**
 * Rows in the sort's order that meet a condition, asked of each row: the walk. It reads a few times the
 * rows it expects the page within, `walkReadsAtMost` at most; null when those held too few matches to
 * fill the page (the caller looks the page up instead). The reach is a bound row of the order (the last
 * row it may read, found in the order's own index), so the walk is one read of that index in order that
 * stops as soon as the page is full: read as "the first `reach` rows, then those that match", every row
 * of the reach was asked and sorted again (a common first name's page 50: 40,000 rows, 34 ms at 1,000,000
 * on SQLite, against ~12,000).
 */
export async function walk(
  ctx: ReadContext,
  condition: (eb: ExpressionBuilder<SearchDb, 'collections'>) => ReturnType<ReturnType<typeof matchesRow>>,
  sort: Sort,
  offset: number,
  limit: number,
  /** How many rows of the order the page is expected within (its matches spread evenly). */
  expected: number,
): Promise<NarrowRow[] | null> {
  const [column, direction] = SORT_COLUMN[sort];
  const reach = reachOf(ctx, expected);
  const bound = await ctx.reads
    .selectFrom('collections')
    .select([`collections.${column} as value`, 'collections.id'])
    .where('collections.account', '=', ctx.account)
    .orderBy(`collections.${column}`, direction)
    .orderBy('collections.id', direction)
    .offset(reach - 1)
    .limit(1)
    .executeTakeFirst();
  let walked = ctx.reads
    .selectFrom('collections')
    .where('collections.account', '=', ctx.account) as unknown as ListRows;
  // Within the reach: at or before the bound row in the order (an account of fewer rows is read whole).
  if (bound)
    walked = walked.where((eb) =>
      eb(
        eb.refTuple(`collections.${column}`, 'collections.id'),
        direction === 'desc' ? '>=' : '<=',
        eb.tuple(bound.value as never, bound.id),
      ),
    );
  const rows = (await inOrder(
    walked.select(NARROW_COLUMNS).where(condition),
    sort,
    offset,
    limit,
  ).execute()) as NarrowRow[];
  if (rows.length < limit && bound) return null;
  return rows;
}

/** A column's values as one JSON array: the aggregate of a group, each store's own function. */
export const jsonArray = (ctx: ReadContext, column: string) =>
  ctx.dialect === 'sqlite'
    ? sql<unknown>`json_group_array(${sql.ref(column)})`
    : sql<unknown>`json_agg(${sql.ref(column)})`;

/** A rank's ids as one JSON array, in `rankSizes`' statement (its `sizes` row's rank). */
export const idsOfRank = (ctx: ReadContext) =>
  sql`select ${jsonArray(ctx, 'h.id')} from hits as h where h.rank = sizes.rank`;

/** A JSON array of ids as read back: text from SQLite, parsed already from PostgreSQL. */
export const idsFrom = (value: unknown): string[] =>
  value == null ? [] : ((typeof value === 'string' ? JSON.parse(value) : value) as string[]);

/** How far a walk reads: a few times the rows it expects its page within, `walkReadsAtMost` at most. */
export const reachOf = (ctx: ReadContext, expected: number) =>
  Math.min(ctx.tuning.walkReadsAtMost, Math.max(WALK_READS_AT_LEAST, Math.ceil(expected * WALK_READS_PER_EXPECTED)));
