import 'server-only';
import type { Filters } from '@/lib/api/list-state';
import type { ReadContext } from './context';
import { planOf } from './plan-of';
import { viewRows } from './rows';

/** Where the last chunk ended: its last row's creation time and id. */
export type IdsCursor = { createdAt: string; id: string };

/**
 * The ids a list state holds, a chunk at a time, newest first after `after` (bulk tagging by a list's state,
 * section 16): each chunk one statement on the reads, so a hundred thousand ids never hold the event loop or
 * a connection for long. In the order the list's trees keep (status, currency and the whole account's all end
 * in creation time and id), each chunk reads its own rows; in id order, 100,000 of 1,000,000 took 13 s, each
 * chunk reading a tenth of the account again. The plan is read once by the caller's first chunk and handed
 * back for the next.
 */
export async function viewIds(
  ctx: ReadContext,
  filters: Filters,
  after: IdsCursor | null,
  limit: number,
  plan?: Awaited<ReturnType<typeof planOf>> | null,
) {
  const read = plan !== undefined ? plan : filters.q ? await planOf(ctx, filters.q) : null;
  let q = viewRows(ctx, filters, read).select(['collections.id', 'collections.created_at']);
  if (after !== null)
    q = q.where((eb) =>
      eb.or([
        eb('collections.created_at', '<', after.createdAt),
        eb.and([eb('collections.created_at', '=', after.createdAt), eb('collections.id', '<', after.id)]),
      ]),
    );
  const rows = await q
    .orderBy('collections.created_at', 'desc')
    .orderBy('collections.id', 'desc')
    .limit(limit)
    .execute();
  const last = rows.at(-1);
  return {
    ids: rows.map((r) => r.id),
    next: last ? { createdAt: last.created_at, id: last.id } : null,
    plan: read,
  };
}
