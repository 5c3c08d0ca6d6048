import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '@/lib/server/database/dialect';

/**
 * A reference's start with each row's creation time: the page of a reference prefix whose matches are
 * many and the oldest (`INV-2026-1`: 55,022 of 1,000,000 collections, which no walk of the newest-first
 * order reaches) is the prefix's first rows in that order, read from this index alone and sorted on the
 * way, instead of every match's time looked up by its key (7 ms instead of ~110 ms at 1,000,000). It
 * replaces the plain references' index (same prefix, 68.6 MiB instead of 66.6 at 1,000,000; built in 1 s).
 * The id is named for PostgreSQL, whose indexes do not carry the key (without it every match's row was read:
 * 50 ms of the page's 66); SQLite's carry it anyway.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('collections_reference_created')
    .on('collections')
    .columns(['account', 'reference_key', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('collections_reference').execute();
  // SQLite plans an index it has no statistics for as if each account held ten rows: on an analyzed index
  // the walk of the newest rows then sorted the whole account through this index (2.2 s instead of 10 ms at
  // 1,000,000) until the next full scan's analysis. So an analyzed index gets this index's figures now, sampled
  // as the sync's analysis samples them (store-maintenance.ts). PostgreSQL plans from the table's statistics.
  if (dialectOf(db) !== 'sqlite') return;
  const analyzed = await sql`select 1 from sqlite_master where name = 'sqlite_stat1'`.execute(db);
  if (!analyzed.rows.length) return;
  await sql`PRAGMA analysis_limit=400`.execute(db);
  await sql`ANALYZE main.collections_reference_created`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('collections_reference')
    .on('collections')
    .columns(['account', 'reference_key'])
    .execute();
  await db.schema.dropIndex('collections_reference_created').execute();
}
