import 'server-only';
import type { Kysely } from 'kysely';
import { textType } from '../../database/dialect';

/**
 * An account is named by what identifies it (its API key, or the operator's INDEX_ACCOUNT label), no longer
 * by its address too: the same account reached at another host or port keeps its rows (blind.ts
 * `accountKey`). An index written before is carried over at its first open under the new name
 * (search-index/store.ts), and its sealed contacts stay bound to the name they were sealed under:
 * `seal_key` keeps it (null: the account's own key). `opened_at` is when a replica last opened the
 * account: one no replica opened for INDEX_ACCOUNT_RETENTION_DAYS is pruned by the syncing replica.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema.alterTable('accounts').addColumn('seal_key', text).execute();
  await db.schema.alterTable('accounts').addColumn('opened_at', text).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('opened_at').execute();
  await db.schema.alterTable('accounts').dropColumn('seal_key').execute();
}
