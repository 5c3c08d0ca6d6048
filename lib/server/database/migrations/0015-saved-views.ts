import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf, textType } from '../../database/dialect';

/**
 * Saved views (contract section 13): a team's working lists, kept in the application's database so every
 * replica sees a change at once. Not derived data: a changed INDEX_SECRET empties the index's tables, never
 * these. Keyed by the account (lib/server/views/account.ts: the same key reached at any address) and the
 * owner (the signed-in identity; "anyone" in open mode). A name is unique per owner, compared
 * case-insensitively through `name_key`.
 *
 * `view_defaults` holds each person's default view (one a person, any view they can open); deleting the
 * view forgets it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('saved_views')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account', text, (c) => c.notNull())
    .addColumn('owner', text, (c) => c.notNull())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('name_key', text, (c) => c.notNull())
    .addColumn('query', text, (c) => c.notNull())
    /** Column ids joined by commas, in their order. */
    .addColumn('columns', text, (c) => c.notNull())
    .addColumn('limit', 'integer', (c) => c.notNull())
    .addColumn('shared', 'integer', (c) => c.notNull())
    /** Its place in the navigation (1 to 5) when an admin pinned it; null otherwise. */
    .addColumn('pinned', 'integer')
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('saved_views_owner_name')
    .on('saved_views')
    .columns(['account', 'owner', 'name_key'])
    .unique()
    .execute();
  // The menu's team list and the navigation's pins: an account's shared views.
  await db.schema.createIndex('saved_views_shared').on('saved_views').columns(['account', 'shared']).execute();
  const defaults = db.schema
    .createTable('view_defaults')
    .addColumn('account', text, (c) => c.notNull())
    .addColumn('owner', text, (c) => c.notNull())
    .addColumn('view_id', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('view_defaults_pk', ['account', 'owner']);
  await (dialectOf(db) === 'sqlite' ? defaults.modifyEnd(sql`without rowid`) : defaults).execute();
  await db.schema.createIndex('view_defaults_view').on('view_defaults').columns(['view_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('view_defaults').execute();
  await db.schema.dropTable('saved_views').execute();
}
