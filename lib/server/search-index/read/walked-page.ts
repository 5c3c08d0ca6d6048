import 'server-only';
import type { Filters } from '@/lib/api/list-state';
import type { ReadContext } from './context';
import { matchesRow, probedPerRow } from './match';
import { SearchPlan, isRanked } from './plan';
import { fewMatches, tieredPage } from './ranked';
import { narrows } from './rows';
import { WALK_AT_MOST } from './tuning';
import { countMatches, ledByReference, walk } from './walk';

/**
 * A page of a search that matches many rows, with no filters: the rows are walked in the page's order
 * and each asked whether it matches (`matchesRow`), until the page is full, instead of every match
 * being looked up to be sorted. A common first name (41,806 of 1,000,000 collections) matches one row
 * in 24: its first page is a few hundred rows walked instead of tens of thousands looked up, about ten
 * times faster on SQLite and five on PostgreSQL (page 50: two to six times). The count is the candidates',
 * counted without their rows (every token has its row). Null when the matches are few or the page so
 * deep that looking every match up is cheaper (a row walked costs several lookups' worth on SQLite): `page` then.
 */
export async function walkedPage(
  ctx: ReadContext,
  plan: SearchPlan,
  filters: Filters,
  pageNumber: number,
  limit: number,
) {
  if (narrows(filters)) return null;
  if (isRanked(plan)) return tieredPage(ctx, plan, filters, pageNumber, limit);
  // Side by side (the rows indexed: a few roll-up rows, a round trip of its own on PostgreSQL).
  const [{ count, fewOthers }, indexed] = await Promise.all([countMatches(ctx, plan), ctx.indexedCount()]);
  if (count < ctx.tuning.walkFrom)
    return count ? fewMatches(ctx, plan, filters.sort, pageNumber, limit, count, indexed) : null;
  const offset = (pageNumber - 1) * limit;
  const expected = ((offset + limit) * indexed) / count;
  const found =
    (expected <= WALK_AT_MOST
      ? await walk(
          ctx,
          matchesRow(ctx, plan, probedPerRow(ctx, expected, count)),
          filters.sort,
          offset,
          limit,
          expected,
        )
      : null) ?? (fewOthers ? await ledByReference(ctx, plan, filters.sort, offset, limit) : null);
  return found && { narrow: found, count };
}
