import 'server-only';
import type { Filters } from '@/lib/api/list-state';
import type { ReadContext } from './context';
import { planOf } from './plan-of';
import { viewRows } from './rows';

/**
 * The ids a list state holds, a chunk at a time in id order after `after` (bulk tagging by a list's state,
 * section 16): each chunk one statement on the reads, so a hundred thousand ids never hold the event loop or
 * a connection for long. The plan is read once by the caller's first chunk and handed back for the next.
 */
export async function viewIds(
  ctx: ReadContext,
  filters: Filters,
  after: string | null,
  limit: number,
  plan?: Awaited<ReturnType<typeof planOf>> | null,
) {
  const read = plan !== undefined ? plan : filters.q ? await planOf(ctx, filters.q) : null;
  let q = viewRows(ctx, filters, read).select('collections.id');
  if (after !== null) q = q.where('collections.id', '>', after);
  const rows = await q.orderBy('collections.id').limit(limit).execute();
  return { ids: rows.map((r) => r.id), plan: read };
}
