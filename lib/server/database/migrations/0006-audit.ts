import 'server-only';
import type { Kysely } from 'kysely';
import { dialectOf, textType } from '../../database/dialect';

/**
 * The audit log (contract section 10): append-only, in the index's database so
 * that a move of the index to PostgreSQL carries it. Unlike the rest of the
 * file it is not derived data: a changed INDEX_SECRET empties the index's
 * tables, never this one. Read by time, by user, by target and by action.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // An id in append order: SQLite's AUTOINCREMENT, PostgreSQL's identity column (the store's next dialect).
  const sqlite = dialectOf(db) === 'sqlite';
  const text = textType(db);
  await db.schema
    .createTable('audit_entries')
    .addColumn('id', sqlite ? 'integer' : 'bigint', (c) =>
      sqlite ? c.primaryKey().autoIncrement() : c.primaryKey().generatedByDefaultAsIdentity(),
    )
    .addColumn('at', text, (c) => c.notNull())
    .addColumn('user', text, (c) => c.notNull())
    .addColumn('role', text, (c) => c.notNull())
    .addColumn('action', text, (c) => c.notNull())
    .addColumn('target', text)
    .addColumn('detail', text)
    .addColumn('request_id', text, (c) => c.notNull())
    .addColumn('outcome', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_at').on('audit_entries').columns(['at']).execute();
  await db.schema.createIndex('audit_user').on('audit_entries').columns(['user', 'at']).execute();
  await db.schema.createIndex('audit_target').on('audit_entries').columns(['target', 'at']).execute();
  await db.schema.createIndex('audit_action').on('audit_entries').columns(['action', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_entries').execute();
}
