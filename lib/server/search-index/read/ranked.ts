import 'server-only';
import type { Filters, Sort } from '@/lib/api/list-state';
import { sql } from 'kysely';
import { nameCount } from './candidates';
import type { ReadContext } from './context';
import { givenIds, matchesAtMost, oneOf, PROBED_PER_ROW, probedPerRow } from './match';
import { formPairs, formsOf } from './name-forms';
import { inOrder } from './page';
import { FRAGMENT_LIMIT, RANK, SearchPlan } from './plan';
import { rows, withHits } from './rows';
import { ListRows, NARROW_COLUMNS, NarrowRow, Rows, SORT_COLUMN } from './rows-types';
import { LARGE_FORM_CANDIDATES, WALK_AT_MOST } from './tuning';
import { idsFrom, idsOfRank, jsonArray, reachOf, walk } from './walk';

/**
 * How many rows each rank of a ranked search holds (each row once, at its best rank). Every match is
 * grouped by id, unless one form of a single word holds most of them (a 3-letter prefix: 'Oka', the
 * 50,494 records of 'Okafor'): that form's key range is counted as it is (each id once already), and only
 * the other matches are grouped, each asked whether the form holds it too. At 1,000,000 on SQLite that is
 * about three times faster than grouping them all. `withFew`: when the matches are grouped and fewer than
 * `walkFrom` in all, each rank's ids too (`few`, for `fewMatches`).
 */
export async function rankSizes(
  ctx: ReadContext,
  plan: SearchPlan,
  withFew: boolean,
): Promise<{ sizes: number[]; few?: string[][] }> {
  const big = largestForm(ctx, plan);
  if (!big) {
    // With the sizes, when they add up to fewer than `walkFrom` (the page then walks for them: `fewMatches`),
    // each rank's ids as one JSON array: one statement where there were two, each planning and finding the
    // matches again, and three values where there were 2,074 rows of two ('José Okafar', 1,000,000
    // collections: the second statement ~4 ms of PostgreSQL's time, its rows ~2 ms of the request thread's).
    const few = Number.isFinite(ctx.tuning.walkFrom)
      ? sql<unknown>`case when (select sum(s.n) from sizes as s) < ${ctx.tuning.walkFrom} then (${idsOfRank(ctx)}) end`
      : sql<unknown>`(${idsOfRank(ctx)})`;
    const rows = await withHits(ctx, plan)
      .with('sizes', (cte) =>
        cte
          .selectFrom('hits')
          .select(['hits.rank', sql<number | string>`count(*)`.as('n')])
          .groupBy('hits.rank'),
      )
      .selectFrom('sizes')
      .select(['sizes.rank', 'sizes.n'])
      .$if(withFew, (qb) => qb.select(few.as('ids')))
      .execute();
    const byRank = (r: number) => rows.find((row) => Number(row.rank) === r);
    const sizes = Object.values(RANK).map((r) => Number(byRank(r)?.n ?? 0));
    const read = rows.length > 0 && rows.every((row) => 'ids' in row && row.ids != null);
    return {
      sizes,
      few: read
        ? Object.values(RANK).map((r) => idsFrom((byRank(r) as { ids?: unknown } | undefined)?.ids))
        : undefined,
    };
  }
  const word = plan.nameWords[0]!;
  const rest: SearchPlan = {
    ...plan,
    nameWords: [
      {
        ...word,
        prefixWords: word.prefixWords.filter((t) => t !== big.token),
        soundWords: word.soundWords.filter((t) => t !== big.token),
      },
    ],
  };
  // The other matches are asked whether the large form holds them too: probed one by one when they are few
  // against its ids (at least `largeForm`), else left to the planner (which may hash the form's ids once).
  const asked =
    (plan.exactCount ?? ctx.tuning.forgiveBelow) +
    big.others +
    (plan.fragment === null ? 0 : (plan.fragmentIds?.length ?? FRAGMENT_LIMIT));
  const fence = asked * ctx.tuning.probeCostInIds <= ctx.tuning.largeForm ? PROBED_PER_ROW : sql``;
  const inBig = sql<number>`(case when exists (select 1 from contact_tokens as b where b.account = ${ctx.account}
    and b.kind = 'name' and b.token = ${big.token} and b.id = hits.id ${fence}) then 1 else 0 end)`;
  const [whole, others] = await Promise.all([
    nameCount(ctx, big.token),
    withHits(ctx, rest)
      .selectFrom('hits')
      .select(['hits.rank', inBig.as('held'), sql<number | string>`count(*)`.as('n')])
      .groupBy(['hits.rank', 'held'])
      .execute(),
  ]);
  const byRank = Object.values(RANK).map(() => 0);
  // The form's own rows at its rank, but those another match ranks higher (or the same: counted there).
  byRank[big.rank]! += whole;
  for (const o of others) {
    const rank = Number(o.rank);
    const n = Number(o.n);
    if (Number(o.held) && rank >= big.rank) continue;
    byRank[rank]! += n;
    if (Number(o.held)) byRank[big.rank]! -= n;
  }
  return { sizes: byRank };
}

/**
 * The one form of a single-word search that holds at least `largeForm` rows when every other holds fewer
 * (each counted up to that with the vocabulary): null otherwise, and for more words or too many forms.
 */
export function largestForm(
  ctx: ReadContext,
  plan: SearchPlan,
): { token: string; rank: number; others: number } | null {
  if (plan.nameWords.length !== 1 || !Number.isFinite(ctx.tuning.largeForm)) return null;
  const forms = [...formsOf(ctx, plan.nameWords[0]!)].filter(([, rank]) => rank > RANK.exact);
  if (!forms.length || forms.length > LARGE_FORM_CANDIDATES) return null;
  // Counted with the vocabulary (`withWordForms`): not when its rows were too many (the forms were then
  // too many, or nearly: a word under both kinds is a row of each), and all are grouped.
  const known = plan.formSizes;
  if (!forms.every(([token]) => known?.has(token))) return null;
  const sizes = forms.map(([token]) => known!.get(token)!);
  const large = forms.filter((_, i) => sizes[i]! >= ctx.tuning.largeForm);
  if (large.length !== 1) return null;
  const [token, rank] = large[0]!;
  // The other forms' rows (each below `largeForm`, so counted whole).
  const others = sizes.reduce((sum, n) => (n >= ctx.tuning.largeForm ? sum : sum + n), 0);
  return { token, rank, others };
}

/**
 * A ranked search's page, one rank after the other (exact, a name's start, a sound-alike), each rank's
 * rows walked in the sort's order when they are many, or looked up when few: a common first name keeps
 * the walk's speed although sound-alikes join it. The ranks' sizes are counted once, without rows.
 */
export async function tieredPage(
  ctx: ReadContext,
  plan: SearchPlan,
  filters: Filters,
  pageNumber: number,
  limit: number,
) {
  const { sort } = filters;
  const [{ sizes: byRank, few }, indexed] = await Promise.all([
    // The few ids are read whenever the order is walked for them and the plan does not say its matches
    // are many; a deep page (or a page of more than 41 rows of 2,074 matches in 1,000,000) then looks its
    // rows up instead, and the ids (~0.3 ms parsed) go unused: the page's own test needs the count.
    rankSizes(ctx, plan, walksFew(ctx, sort) && !manyMatches(ctx, plan)),
    ctx.indexedCount(),
  ]);
  const count = byRank.reduce((a, b) => a + b, 0);
  if (count < ctx.tuning.walkFrom)
    return count ? fewMatches(ctx, plan, sort, pageNumber, limit, count, indexed, few) : null;
  const paired = formPairs(ctx, plan) !== null;
  const narrow = await acrossRanks(byRank, pageNumber, limit, (rank, offset, take, size) =>
    rankPart(
      // A rank the words' pairs found is looked up: a walk asks each row for its words one by one, which
      // would also take a name whose one word stands for both (pairs never do).
      paired && rank > RANK.exact
        ? null
        : (expected) => {
            const perRow = probedPerRow(ctx, expected, size);
            return walk(
              ctx,
              (eb) =>
                rank === RANK.exact
                  ? matchesAtMost(ctx, plan, rank, perRow)(eb)
                  : eb.and([
                      matchesAtMost(ctx, plan, rank, perRow)(eb),
                      eb.not(matchesAtMost(ctx, plan, rank - 1, perRow)(eb)),
                    ]),
              sort,
              offset,
              take,
              expected,
            );
          },
      (rows(ctx, filters, plan) as Rows).where('hits.rank', '=', rank).select(NARROW_COLUMNS) as ListRows,
      sort,
      offset,
      take,
      ((offset + take) * indexed) / size,
    ),
  );
  return { narrow, count };
}

/**
 * A page across a search's ranks in order (exact, a name's start, a sound-alike; each of `sizes` rows): from
 * each rank, the part of the page it holds, read by `read` (its offset within the rank, how many).
 */
export async function acrossRanks(
  sizes: number[],
  pageNumber: number,
  limit: number,
  read: (rank: number, offset: number, take: number, size: number) => Promise<NarrowRow[]>,
) {
  let offset = (pageNumber - 1) * limit;
  const narrow: NarrowRow[] = [];
  for (const [rank, size] of sizes.entries()) {
    if (narrow.length >= limit) break;
    if (offset >= size) {
      offset -= size;
      continue;
    }
    const take = Math.min(limit - narrow.length, size - offset);
    narrow.push(...(await read(rank, offset, take, size)));
    offset = 0;
  }
  return narrow;
}

/**
 * A rank's part of a page: walked in the order for the rows meeting `condition` when the walk is expected
 * to reach it soon (and does), else the rank's rows (`looked`) looked up and put in order.
 */
export async function rankPart(
  walker: ((expected: number) => Promise<NarrowRow[] | null>) | null,
  looked: ListRows,
  sort: Sort,
  offset: number,
  take: number,
  expected: number,
): Promise<NarrowRow[]> {
  const walked = walker && expected <= WALK_AT_MOST ? await walker(expected) : null;
  return walked ?? ((await inOrder(looked, sort, offset, take).execute()) as NarrowRow[]);
}

/**
 * The rows of these ids from `offset` (`take` of them) in the sort's order, found by walking the order's
 * first rows (at most the walk's reach, in one statement: the reach is a limit under the filter, read
 * only as far as the page needs), each row asked whether its id is one of them: null when the reach
 * holds too few (the caller looks them up).
 */
export async function walkFor(
  ctx: ReadContext,
  ids: string[],
  sort: Sort,
  offset: number,
  take: number,
  expected: number,
) {
  const [column, direction] = SORT_COLUMN[sort];
  const reach = reachOf(ctx, expected);
  const first = ctx.reads
    .selectFrom('collections')
    .select(NARROW_COLUMNS)
    .where('collections.account', '=', ctx.account)
    .orderBy(`collections.${column}`, direction)
    .orderBy('collections.id', direction)
    .limit(reach);
  const rows = (await ctx.reads
    .selectFrom(first.as('w'))
    .selectAll('w')
    .where(oneOf(ctx, ids, sql.ref('w.id')))
    .orderBy(`w.${column}`, direction)
    .orderBy('w.id', direction)
    .limit(take)
    .offset(offset)
    .execute()) as NarrowRow[];
  return rows.length < take ? null : rows;
}

/**
 * Whether a ranked plan already knows it matches at least `walkFrom` rows: its reference fragment's own
 * rows were too many to keep (`fragmentIds`), or its one word's forms, each counted up to `largeForm`,
 * add up to that. Its few ids are then not asked for with the ranks' sizes (`rankSizes`), whose statement
 * would keep every match aside to read them ('202', a fragment of most references: p50 71 -> 78 ms on
 * SQLite at 1,000,000, side by side).
 */
export const manyMatches = (ctx: ReadContext, plan: SearchPlan) =>
  (plan.fragment !== null && !plan.fragmentIds) ||
  [...(plan.formSizes?.values() ?? [])].reduce((sum, n) => sum + n, plan.exactCount ?? 0) >= ctx.tuning.walkFrom;

/** Whether a search's few matches are walked for in this order (`fewMatches`): creation order only. */
export const walksFew = (ctx: ReadContext, sort: Sort) => ctx.tuning.walkFew && SORT_COLUMN[sort][0] === 'created_at';

/**
 * A search's page in creation order when its matches are few (below `walkFrom`) but spread wide enough
 * that a walk reaches a page soon (a name that sounds like another: 'José Okafar', 2,074 of 1,000,000; a
 * first and last name): its matches read once, each rank's ids as one JSON array (by `rankSizes` with the
 * ranks' sizes, or here), then each rank's page walked in the order through the created-time index (which
 * holds every column a page shows), each row asked only whether its id is one of them (a hash probe); a
 * rank whose page the walk would not reach soon is looked up by id.
 * Looking every match up to sort them (what `page` does) was 2,074 lookups by key: 17.6 of the page's
 * 23.6 ms on PostgreSQL. Its count is theirs (exact: `countMatches` may only bound it). Null for the other
 * orders and when the walk would read far (`page` then).
 */
export async function fewMatches(
  ctx: ReadContext,
  plan: SearchPlan,
  sort: Sort,
  pageNumber: number,
  limit: number,
  count: number,
  indexed: number,
  /** Each rank's ids when already read (`rankSizes`). */
  known?: string[][],
) {
  if (!walksFew(ctx, sort) || (pageNumber * limit * indexed) / count > WALK_AT_MOST) return null;
  const byRank = known ?? (await fewHits(ctx, plan));
  const narrow = await acrossRanks(
    byRank.map((ids) => ids.length),
    pageNumber,
    limit,
    (rank, offset, take, size) => {
      const given = () => givenIds(ctx, byRank[rank]!, rank);
      return rankPart(
        (expected) => walkFor(ctx, byRank[rank]!, sort, offset, take, expected),
        ctx.reads
          .selectFrom(given().as('g'))
          .crossJoin('collections')
          .where('collections.account', '=', ctx.account)
          .whereRef('collections.id', '=', 'g.id')
          .select(NARROW_COLUMNS) as unknown as ListRows,
        sort,
        offset,
        take,
        ((offset + take) * indexed) / size,
      );
    },
  );
  return { narrow, count: byRank.reduce((n, ids) => n + ids.length, 0) };
}

/**
 * Each rank's ids of a search's few matches, as one JSON array a rank: 'Okafor José''s 2,000 rows of two
 * were ~2 ms of the request thread's parsing. Not bounded: they were fewer than `walkFrom` when counted,
 * milliseconds before, and a sync step writes one page of records at most in between.
 */
export async function fewHits(ctx: ReadContext, plan: SearchPlan) {
  const rows = await withHits(ctx, plan)
    .selectFrom('hits')
    .select(['hits.rank', jsonArray(ctx, 'hits.id').as('ids')])
    .groupBy('hits.rank')
    .execute();
  return Object.values(RANK).map((r) => idsFrom(rows.find((row) => Number(row.rank) === r)?.ids));
}
