import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '@/lib/server/database/dialect';

/**
 * SQLite: `collections`, the narrow rows, becomes a rowid table with its primary key (account, id) as a unique
 * index of its own, as migration 0025 made of the details. Clustered on ids that follow no order a scan writes
 * in (WITHOUT ROWID since migration 0001), each new row landed on a leaf of ~25 rows at a random place and split
 * it every few inserts; appended, new rows fill pages in the order they come, and their key goes to a narrow
 * tree (~40 bytes an entry). The other trees keep a row's rowid beside its id (`NAMING_ID`). A first scan's writes
 * alone (`bench:writes`, 500,000 sandbox records, 1,000 a transaction, the tree before and after in turn):
 * 76.1 / 69.4 → 65.3 s, the process's CPU 79.5 / 72.5 → 68.9 s, its writes 21.5 → 17.9 GB and its reads 10.2 →
 * 7.3 GB. A row read by its key takes one lookup more (by integer); one read through another tree, one lookup by
 * integer instead of by key.
 *
 * The table's trees and triggers are made again as they were (a first scan may have put its trees by amount
 * off: they stay off; six name `id`, below), and the rows copied in key order, under the migrations' write
 * lock: 15.6 s on a copy of the 1,000,000 index. PostgreSQL's tables are heaps already: nothing to do.
 */
/**
 * The trees whose key ended in `id` without naming it: a WITHOUT ROWID table's trees end in the columns of its key
 * they do not name, a rowid table's in the rowid. A sort by amount or by update and then by id (a page in that
 * order, a walk's bound) reads them in order only with `id` in them, and a count that leaves the opened-by-id rows
 * out reads `id` from them alone; so they are made here with `id` named (on a clustered table, as `down` leaves
 * them, the same trees: `id` is not added twice). Migrations 0001 and 0008 defined them; store-records.ts
 * `AMOUNT_TREES` builds two of them again after a first scan.
 */
const NAMING_ID: Record<string, { columns: string[]; completedOnly?: true }> = {
  collections_status: { columns: ['account', 'status', 'created_at', 'id'] },
  collections_currency: { columns: ['account', 'currency', 'status', 'created_at', 'id'] },
  collections_currency_amount: { columns: ['account', 'currency', 'status', 'amount_value', 'created_at', 'id'] },
  collections_amount: { columns: ['account', 'amount_value', 'id'] },
  collections_updated: { columns: ['account', 'updated_at', 'id'] },
  collections_completed: {
    columns: ['account', 'completed_at', 'currency', 'status', 'amount_value', 'created_at', 'updated_at', 'id'],
    completedOnly: true,
  },
};

const columns = sql.raw(
  'account, id, reference_key, status, amount_value, currency, created_at, updated_at, seen_at, completed_at, fragment_row',
);

async function rebuild(db: Kysely<unknown>, clustered: boolean) {
  // The table's trees and triggers as they are now (a first scan may have put its amount trees off), made again
  // on the new table as they were.
  const saved = (
    await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
      where tbl_name = 'collections' and type in ('index', 'trigger') and sql is not null
      order by type = 'trigger', name`.execute(db)
  ).rows;
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
  for (const { name, sql: text } of saved) {
    const tree = clustered ? undefined : NAMING_ID[name];
    if (!tree) await sql.raw(text).execute(db);
    else {
      const made = db.schema.createIndex(name).on('collections').columns(tree.columns);
      await (tree.completedOnly ? made.where(sql.ref('completed_at'), 'is not', null) : made).execute();
    }
  }
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
