import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '@/lib/server/database/dialect';

/**
 * SQLite: `collections`, the narrow rows, becomes a rowid table with its primary key (account, id) as a unique
 * index of its own, as migration 0025 made of the details. Clustered on ids that follow no order a scan writes
 * in (WITHOUT ROWID since migration 0001), each new row landed on a leaf of ~25 rows at a random place and split
 * it every few inserts; appended, new rows fill pages in the order they come, and their key goes to a narrow
 * tree (~40 bytes an entry). The other trees keep a row's rowid where they kept its key. A first scan's writes
 * alone (`bench:writes`, 500,000 sandbox records, 1,000 a transaction, the tree before and after in turn):
 * 72.7 → 68.6 s, the process's CPU 76.0 → 71.0 s, its writes 21.5 → 17.7 GB and its reads 10.2 → 7.2 GB. A row
 * read by its key takes one lookup more (by integer); one read through another tree, one lookup by integer
 * instead of by key.
 *
 * The table's trees and triggers are made again as they were (a first scan may have put its trees by amount
 * off: they stay off), and the rows copied in key order, under the migrations' write lock: 14.3 s on a copy of
 * the 1,000,000 index. PostgreSQL's tables are heaps already: nothing to do.
 */
const columns = sql.raw(
  'account, id, reference_key, status, amount_value, currency, created_at, updated_at, seen_at, completed_at, fragment_row',
);

async function rebuild(db: Kysely<unknown>, clustered: boolean) {
  // The table's trees and triggers as they are now (a first scan may have put its amount trees off), made again
  // on the new table as they were.
  const saved = (
    await sql<{ sql: string }>`select sql from sqlite_master
      where tbl_name = 'collections' and type in ('index', 'trigger') and sql is not null
      order by type = 'trigger', name`.execute(db)
  ).rows.map((r) => r.sql);
  await sql`create table collections_rebuilt (
    "account" integer not null,
    "id" text not null,
    "reference_key" text not null,
    "status" text not null,
    "amount_value" bigint not null,
    "currency" text not null,
    "created_at" text not null,
    "updated_at" text not null,
    "seen_at" text not null,
    "completed_at" text,
    fragment_row integer,
    constraint "collections_pk" primary key ("account", "id")
  ) ${sql.raw(clustered ? 'without rowid' : '')}`.execute(db);
  await sql`insert into collections_rebuilt (${columns})
    select ${columns} from collections order by account, id`.execute(db);
  await sql`drop table collections`.execute(db);
  await sql`alter table collections_rebuilt rename to collections`.execute(db);
  for (const text of saved) await sql.raw(text).execute(db);
  const { analysis_limit: limit } = (await sql<{ analysis_limit: number }>`pragma analysis_limit`.execute(db)).rows[0]!;
  await sql`pragma analysis_limit = 400`.execute(db);
  await sql`analyze collections`.execute(db);
  await sql`pragma analysis_limit = ${sql.lit(limit)}`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'sqlite') await rebuild(db, false);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'sqlite') await rebuild(db, true);
}
