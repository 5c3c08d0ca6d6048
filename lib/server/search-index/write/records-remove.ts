import 'server-only';
import { sql } from 'kysely';
import { isAnyOf } from '../../database/bulk-rows';
import { openedIdsOnSqlite } from '../shared/opened-ids';
import { counted } from './records-slice';
import { deleteTokens } from './records-tokens';
import { applyDelta, RollupDelta } from './rollups';
import { chunks, type StoreContext } from './store-context';

/** Removes rows no scan, poll or live read has seen since `before` (the start of a completed scan). */
export function removeUnseen(store: StoreContext, before: string): Promise<number> {
  const { account, write } = store;
  return write(async (trx) => {
    // One pass over the narrow rows finds what the scan did not see (no index on seen_at: every
    // write of a scan would pay for one); the rest is by key. Three passes blocked the event loop
    // ~0.5 s at the end of each scan of 1,000,000 rows.
    const notSeen = await trx
      .selectFrom('collections')
      .select('id')
      .where('account', '=', account)
      .where('seen_at', '<', before)
      .execute();
    // A collection opened by its id that the list does not return (not integrated): no scan sees it,
    // and it stays (its own page refreshes it whenever it is opened).
    const opened = new Set(
      (store.dialect === 'sqlite'
        ? (await sql<{ id: string }>`select id from ${openedIdsOnSqlite(account)}`.execute(trx)).rows
        : await trx
            .selectFrom('collection_details')
            .select('id')
            .where('account', '=', account)
            .where('type', '<>', 'integrated')
            .execute()
      ).map((r) => r.id),
    );
    const unseen = notSeen.filter((r) => !opened.has(r.id));
    const delta = new RollupDelta();
    for (const part of chunks(
      unseen.map((r) => r.id),
      500,
    )) {
      const gone = await counted(trx, account)
        .where(isAnyOf(trx, 'c.id', part))
        .execute();
      for (const g of gone) delta.add(g, -1);
      await deleteTokens(trx, store, new Map(gone.map((g) => [g.id, g.contact_sealed])));
      await trx
        .deleteFrom('collection_details')
        .where('account', '=', account)
        .where(isAnyOf(trx, 'id', part))
        .execute();
      await trx
        .deleteFrom('collections')
        .where('account', '=', account)
        .where(isAnyOf(trx, 'id', part))
        .execute();
    }
    await applyDelta(trx, account, delta);
    return unseen.length;
  });
}
