import 'server-only';
import { sql } from 'kysely';
import { iso, type Change } from '../shared/history';
import { HISTORY_SINCE } from '../shared/meta-keys';
import type { ReadContext } from './context';
import { taggedIds } from './rows';

export type CollectionHistoryEntry = { seenAt: string; notSeenBefore: string; changes: Change[] };

/**
 * A collection's history as the sync and live reads saw it (contract section 14), newest first: when each
 * change was first seen and when the version before was last seen. The newest 200.
 */
export async function collectionHistory(
  ctx: ReadContext,
  id: string,
): Promise<{ entries: CollectionHistoryEntry[]; since: string | null }> {
  const [rows, since] = await Promise.all([
    ctx.reads
      .selectFrom('collection_history')
      .select(['seen_at', 'not_seen_before', 'changes'])
      .where('account', '=', ctx.account)
      .where('id', '=', id)
      .orderBy('seen_at', 'desc')
      .limit(200)
      .execute(),
    ctx.reads
      .selectFrom('index_meta')
      .select('value')
      .where('key', '=', `${HISTORY_SINCE}:${ctx.account}`)
      .executeTakeFirst(),
  ]);
  return {
    entries: rows.map((r) => ({
      seenAt: r.seen_at,
      notSeenBefore: r.not_seen_before,
      changes: JSON.parse(r.changes) as Change[],
    })),
    since: since?.value ?? null,
  };
}

/**
 * The Overview's Changes (contract section 14): how many collections the index saw change status since
 * a time, by kind (pending → completed: 41), the most first. A collection that changed so twice counts once.
 */
export async function statusChanges(
  ctx: ReadContext,
  since: string,
  tags: readonly string[] = [],
): Promise<{ from: string; to: string; count: number }[]> {
  let q = ctx.reads
    .selectFrom('collection_history')
    .select(['status_from', 'status_to', sql<number | string>`count(distinct collection_history.id)`.as('n')])
    .where('account', '=', ctx.account)
    .where('seen_at', '>=', iso(since)!)
    .where('status_from', 'is not', null);
  // Of the collections holding any of the tags (an overview narrowed by `tag=`).
  if (tags.length) q = q.where('collection_history.id', 'in', taggedIds(ctx, tags));
  const rows = await q.groupBy(['status_from', 'status_to']).execute();
  return rows
    .map((r) => ({ from: r.status_from!, to: r.status_to!, count: Number(r.n) }))
    .sort((a, b) => b.count - a.count || a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}
