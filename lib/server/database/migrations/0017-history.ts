import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf, textType } from '../../database/dialect';

/**
 * A collection's history (contract section 14), rebuilt from what the sync and live reads saw: each change
 * a row, when it was first seen changed (`seen_at`) and when the version before was last seen
 * (`not_seen_before`), so the page can say "between 10:02 and 10:04". `changes` is JSON of `{ field, from,
 * to }` and never holds contact data (a contact change is `{ field: "contact" }`). Derived data: emptied with
 * the index when the secret changes, pruned after HISTORY_RETENTION_DAYS by the syncing replica.
 *
 * `collection_details.snapshot` keeps what a change is told by beyond the columns the index has anyway (see
 * search-index/history.ts); null on rows written before, until they next change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema.alterTable('collection_details').addColumn('snapshot', text).execute();
  const table = db.schema
    .createTable('collection_history')
    .addColumn('account', 'integer', (c) => c.notNull())
    .addColumn('id', text, (c) => c.notNull())
    .addColumn('seen_at', text, (c) => c.notNull())
    .addColumn('not_seen_before', text, (c) => c.notNull())
    .addColumn('changes', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('collection_history_pk', ['account', 'id', 'seen_at']);
  await (dialectOf(db) === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table).execute();
  // The Overview's last day of changes, and the pruning of old ones.
  await db.schema
    .createIndex('collection_history_seen')
    .on('collection_history')
    .columns(['account', 'seen_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('collection_history').execute();
  await db.schema.alterTable('collection_details').dropColumn('snapshot').execute();
}
