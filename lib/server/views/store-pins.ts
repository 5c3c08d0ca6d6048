import 'server-only';
import { PINNED_MAX, type SavedView } from '@/lib/api/views';
import { ViewConflict, type Reader, type ViewDb } from './store-rows';

/**
 * The account's navigation under Collections: its shared views pinned in places 1, 2, … (at most PINNED_MAX,
 * counted in the transaction that pins). Only a shared view can be pinned; the caller checks the role.
 */

/** Pins a shared view in the last place or unpins it; pinning what is already pinned changes nothing. */
export async function pinView(views: ViewDb, reader: Reader, id: string, pinned: boolean): Promise<void> {
  const db = await views.database();
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('saved_views')
      .select(['shared', 'pinned'])
      .where('account', '=', reader.account)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || Number(row.shared) !== 1) {
      if (pinned) throw new ViewConflict('pinned', 'Invalid pinned: only a view shared with everyone can be pinned');
      return;
    }
    if (pinned === (row.pinned !== null)) return;
    let place: number | null = null;
    if (pinned) {
      const taken = await trx
        .selectFrom('saved_views')
        .select('pinned')
        .where('account', '=', reader.account)
        .where('pinned', 'is not', null)
        .execute();
      if (taken.length >= PINNED_MAX)
        throw new ViewConflict(
          'pinned',
          `Invalid pinned: ${PINNED_MAX} views are pinned to the navigation already; unpin one first`,
        );
      place = Math.max(0, ...taken.map((t) => Number(t.pinned))) + 1;
    }
    await trx
      .updateTable('saved_views')
      .set({ pinned: place })
      .where('account', '=', reader.account)
      .where('id', '=', id)
      .execute();
  });
}

/** The account's pinned views, in their places, read through `views.reads` (every page's navigation asks). */
export async function pinnedViews(
  views: ViewDb,
  account: string,
): Promise<Pick<SavedView, 'id' | 'name' | 'query' | 'limit' | 'pinned'>[]> {
  const db = await views.reads();
  const rows = await db
    .selectFrom('saved_views')
    .select(['id', 'name', 'query', 'limit', 'pinned'])
    .where('account', '=', account)
    .where('shared', '=', 1)
    .where('pinned', 'is not', null)
    .orderBy('pinned')
    .limit(PINNED_MAX)
    .execute();
  return rows.map((r) => ({ ...r, limit: Number(r.limit), pinned: Number(r.pinned) }));
}
