import 'server-only';
import { sql, type Kysely } from 'kysely';

/** The first index: collections, contact tokens, sync state and its lease. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('index_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('collections')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('reference_key', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_value', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addColumn('line_item_count', 'integer', (c) => c.notNull())
    .addColumn('line_item_totals', 'text', (c) => c.notNull())
    .addColumn('contact_sealed', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .addColumn('gone', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('collections_pk', ['account', 'id'])
    .execute();

  // One index per way in: newest first, by status, by currency, by amount (within a currency), by update,
  // by reference prefix. Marking rows gone reads the whole account once per scan and needs none.
  const index = (name: string, columns: string[]) =>
    db.schema.createIndex(name).on('collections').columns(columns).execute();
  await index('collections_created', ['account', 'gone', 'created_at']);
  await index('collections_status', ['account', 'gone', 'status', 'created_at']);
  await index('collections_currency', ['account', 'gone', 'currency', 'created_at']);
  await index('collections_amount', ['account', 'gone', 'amount_value']);
  await index('collections_currency_amount', ['account', 'gone', 'currency', 'amount_value']);
  await index('collections_updated', ['account', 'gone', 'updated_at']);
  await index('collections_reference', ['account', 'reference_key']);

  await db.schema
    .createTable('contact_tokens')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_tokens_pk', ['account', 'kind', 'token', 'id'])
    .execute();
  await db.schema.createIndex('contact_tokens_by_id').on('contact_tokens').columns(['account', 'id']).execute();

  await db.schema
    .createTable('sync_state')
    .addColumn('account', 'text', (c) => c.primaryKey())
    .addColumn('scan_page', 'integer', (c) => c.notNull())
    .addColumn('scan_started_at', 'text')
    .addColumn('scan_missed', 'text', (c) => c.notNull().defaultTo(sql`'[]'`))
    .addColumn('scans_completed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_full_scan_at', 'text')
    .addColumn('last_poll_at', 'text')
    .addColumn('upstream_count', 'integer')
    .addColumn('error_code', 'text')
    .addColumn('error_at', 'text')
    .execute();

  // Which process syncs an account: a lease it renews; another takes over when it lapses.
  await db.schema
    .createTable('sync_lease')
    .addColumn('account', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['sync_lease', 'sync_state', 'contact_tokens', 'collections', 'index_meta']) {
    await db.schema.dropTable(table).execute();
  }
}
