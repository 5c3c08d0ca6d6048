import 'server-only';
import type { Filters } from '@/lib/api/list-state';
import type { CollectionSummary, SearchHit } from '@/lib/api/summary';
import type { ReadContext } from './context';
import { matchedFields, matchedTokens, wantedTokens } from './matched-fields';
import { IndexPage, page, rolledUpCount, toSummary, withDetails } from './page';
import { isRanked } from './plan';
import { planOf } from './plan-of';
import { rows, taggedCount } from './rows';
import { NARROW_COLUMNS } from './rows-types';
import { walkedPage } from './walked-page';

/** Search by what a customer would quote (contract section 7), within optional filters. */
export async function searchCollections(
  ctx: ReadContext,
  q: string,
  filters: Filters,
  pageNumber: number,
  limit: number,
): Promise<IndexPage<SearchHit>> {
  const plan = await planOf(ctx, q);
  const found =
    (await walkedPage(ctx, plan, filters, pageNumber, limit)) ??
    (await page(rows(ctx, filters, plan), filters.sort, pageNumber, limit, true, isRanked(plan)));
  // The plan's tokens (keyed hashes) made once, for the query and for telling the rows apart.
  const wanted = wantedTokens(ctx, plan);
  const [opened, tokens] = await Promise.all([
    withDetails(ctx, found.narrow),
    matchedTokens(
      ctx,
      plan,
      found.narrow.map((r) => r.id),
      wanted,
    ),
  ]);
  const summaries = opened.map((a) => toSummary(ctx, a));
  const matched = matchedFields(plan, summaries, tokens, wanted);
  return { data: summaries.map((r) => ({ ...r, matched: matched.get(r.id) ?? [] })), count: found.count };
}

/** A filtered, sorted page of the account's collections. */
export async function listCollections(
  ctx: ReadContext,
  filters: Filters,
  pageNumber: number,
  limit: number,
): Promise<IndexPage<CollectionSummary>> {
  const found = await page(
    rows(ctx, filters, null),
    filters.sort,
    pageNumber,
    limit,
    false,
    false,
    rolledUpCount(ctx, filters) ?? taggedCount(ctx, filters),
  );
  return { data: (await withDetails(ctx, found.narrow)).map((a) => toSummary(ctx, a)), count: found.count };
}

/**
 * The index's last copy of one collection and when the upstream last showed it (a record page whose live
 * read failed offers it): null when the index does not hold it.
 */
export async function lastSeen(
  ctx: ReadContext,
  id: string,
): Promise<{ summary: CollectionSummary; seenAt: string } | null> {
  const row = await ctx.reads
    .selectFrom('collections')
    .select([...NARROW_COLUMNS, 'collections.seen_at'])
    .where('collections.account', '=', ctx.account)
    .where('collections.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const [found] = await withDetails(ctx, [row]);
  return { summary: toSummary(ctx, found!), seenAt: row.seen_at };
}
