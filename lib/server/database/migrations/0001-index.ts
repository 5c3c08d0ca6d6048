import 'server-only';
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { dialectOf, textType } from '../../database/dialect';

/**
 * The first index: accounts, collections (narrow rows and their details),
 * contact tokens, sync state and its lease. Rows carry a small integer account (its key lives once, in
 * `accounts`). On SQLite the two big tables are WITHOUT ROWID: clustered on
 * their primary key, one B-tree fewer each to write and store.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = dialectOf(db) === 'sqlite';
  const text = textType(db);
  const clustered = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    sqlite ? table.modifyEnd(sql`without rowid`) : table;

  await db.schema
    .createTable('index_meta')
    .addColumn('key', text, (c) => c.primaryKey())
    .addColumn('value', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('accounts')
    // SQLite numbers an INTEGER PRIMARY KEY by itself (the rowid); PostgreSQL needs an identity.
    .addColumn('id', 'integer', (c) => (sqlite ? c.primaryKey() : c.primaryKey().generatedByDefaultAsIdentity()))
    .addColumn('key', text, (c) => c.notNull().unique())
    .execute();

  // Narrow rows: what filters, sorts and counts read, so a scan of a million rows stays small.
  await clustered(
    db.schema
      .createTable('collections')
      .addColumn('account', 'integer', (c) => c.notNull())
      .addColumn('id', text, (c) => c.notNull())
      .addColumn('reference_key', text, (c) => c.notNull())
      .addColumn('status', text, (c) => c.notNull())
      .addColumn('amount_value', 'bigint', (c) => c.notNull())
      .addColumn('currency', text, (c) => c.notNull())
      .addColumn('created_at', text, (c) => c.notNull())
      .addColumn('updated_at', text, (c) => c.notNull())
      .addColumn('seen_at', text, (c) => c.notNull())
      .addPrimaryKeyConstraint('collections_pk', ['account', 'id']),
  ).execute();

  // What only a page of results shows: read for at most a page of rows at a time.
  await clustered(
    db.schema
      .createTable('collection_details')
      .addColumn('account', 'integer', (c) => c.notNull())
      .addColumn('id', text, (c) => c.notNull())
      .addColumn('reference', text, (c) => c.notNull())
      .addColumn('type', text, (c) => c.notNull())
      .addColumn('completed_at', text)
      .addColumn('line_item_count', 'integer', (c) => c.notNull())
      .addColumn('line_item_totals', text, (c) => c.notNull())
      .addColumn('contact_sealed', text, (c) => c.notNull())
      .addPrimaryKeyConstraint('collection_details_pk', ['account', 'id']),
  ).execute();

  // One index per way in, each covering what its filters and counts read: newest first (and a date
  // range), by status, by currency (and status), by amount within a currency and status, by amount, by
  // update, by reference prefix. Rows that leave the upstream are deleted, so no index needs a flag.
  const index = (name: string, columns: string[]) =>
    db.schema.createIndex(name).on('collections').columns(columns).execute();
  await index('collections_created', ['account', 'created_at']);
  await index('collections_status', ['account', 'status', 'created_at']);
  await index('collections_currency', ['account', 'currency', 'status', 'created_at']);
  await index('collections_currency_amount', ['account', 'currency', 'status', 'amount_value', 'created_at']);
  await index('collections_amount', ['account', 'amount_value']);
  await index('collections_updated', ['account', 'updated_at']);
  await index('collections_reference', ['account', 'reference_key']);

  // Clustered by token: a search reads one key range. A record's old tokens are found again from its
  // sealed contact when it changes, so no second tree by record is kept (it was the costliest write).
  await clustered(
    db.schema
      .createTable('contact_tokens')
      .addColumn('account', 'integer', (c) => c.notNull())
      .addColumn('kind', text, (c) => c.notNull())
      .addColumn('token', text, (c) => c.notNull())
      .addColumn('id', text, (c) => c.notNull())
      .addPrimaryKeyConstraint('contact_tokens_pk', ['account', 'kind', 'token', 'id']),
  ).execute();

  await db.schema
    .createTable('sync_state')
    .addColumn('account', 'integer', (c) => c.primaryKey())
    .addColumn('scan_page', 'integer', (c) => c.notNull())
    .addColumn('scan_started_at', text)
    .addColumn('scan_missed', text, (c) => c.notNull().defaultTo(sql`'[]'`))
    .addColumn('scans_completed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_full_scan_at', text)
    .addColumn('last_poll_at', text)
    .addColumn('upstream_count', 'integer')
    .addColumn('error_code', text)
    .addColumn('error_at', text)
    .execute();

  // Which process syncs an account: a lease it renews; another takes over when it lapses.
  await db.schema
    .createTable('sync_lease')
    .addColumn('account', 'integer', (c) => c.primaryKey())
    .addColumn('owner', text, (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'sync_lease',
    'sync_state',
    'contact_tokens',
    'collection_details',
    'collections',
    'accounts',
    'index_meta',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
