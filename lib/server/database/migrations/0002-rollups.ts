import 'server-only';
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { dialectOf, textType } from '../../database/dialect';

/**
 * Roll-ups for the overview: counts and sums per currency and status, kept per
 * day, per month and for the whole account, and completion times as a
 * histogram, all maintained in the same transaction as the rows they count
 * (rollups.ts). Filled from the rows already indexed at the first open after
 * this migration (store.ts), so an existing index needs no rescan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = dialectOf(db) === 'sqlite';
  const text = textType(db);
  const clustered = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    sqlite ? table.modifyEnd(sql`without rowid`) : table;

  await clustered(
    db.schema
      .createTable('rollups')
      .addColumn('account', 'integer', (c) => c.notNull())
      .addColumn('grain', text, (c) => c.notNull())
      .addColumn('period', text, (c) => c.notNull())
      .addColumn('currency', text, (c) => c.notNull())
      .addColumn('status', text, (c) => c.notNull())
      .addColumn('created_count', 'bigint', (c) => c.notNull())
      .addColumn('created_amount', 'bigint', (c) => c.notNull())
      .addColumn('created_completed', 'bigint', (c) => c.notNull())
      .addColumn('completed_count', 'bigint', (c) => c.notNull())
      .addColumn('completed_amount', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('rollups_pk', ['account', 'grain', 'period', 'currency', 'status']),
  ).execute();

  await clustered(
    db.schema
      .createTable('rollup_durations')
      .addColumn('account', 'integer', (c) => c.notNull())
      .addColumn('grain', text, (c) => c.notNull())
      .addColumn('period', text, (c) => c.notNull())
      .addColumn('currency', text, (c) => c.notNull())
      .addColumn('bucket', 'integer', (c) => c.notNull())
      .addColumn('count', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('rollup_durations_pk', ['account', 'grain', 'period', 'currency', 'bucket']),
  ).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rollup_durations').execute();
  await db.schema.dropTable('rollups').execute();
}
