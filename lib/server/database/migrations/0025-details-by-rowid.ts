import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '@/lib/server/database/dialect';

/**
 * SQLite: `collection_details` becomes a rowid table with its primary key (account, id) as a unique index of
 * its own, where it was clustered on that key (WITHOUT ROWID, migration 0001). Its rows are wide (~600 bytes,
 * five to a page): clustered on ids that follow no order a scan writes in, each new row landed on a full leaf
 * of its own and split it, so 1,000 new records wrote ~3,100 pages of the table (a copy of the 1,000,000
 * index, 1,000 random ids a transaction: 3,065-3,230 pages, 34-47 ms). A rowid table appends them (~200
 * pages), and their key goes to a narrow tree (~35 bytes an entry): ~1,000 pages, 14-16 ms. A row is still
 * read by its key, one lookup in the key's tree more (a page of results reads at most a hundred).
 *
 * The rows are copied in key order (one pass, ~8 s at 1,000,000 rows with the file in the OS's cache), under
 * the migrations' write lock. PostgreSQL's tables are heaps already: nothing to do.
 */
const columns = sql.raw(
  'account, id, reference, type, completed_at, line_item_count, line_item_totals, contact_sealed, methods, follow_up, snapshot',
);

async function rebuild(db: Kysely<unknown>, clustered: boolean) {
  await sql`create table collection_details_rebuilt (
    account integer not null,
    id text not null,
    reference text not null,
    type text not null,
    completed_at text,
    line_item_count integer not null,
    line_item_totals text not null,
    contact_sealed text not null,
    methods text,
    follow_up text,
    snapshot text,
    constraint collection_details_pk primary key (account, id)
  ) ${sql.raw(clustered ? 'without rowid' : '')}`.execute(db);
  await sql`insert into collection_details_rebuilt (${columns})
    select ${columns} from collection_details order by account, id`.execute(db);
  await sql`drop table collection_details`.execute(db);
  await sql`alter table collection_details_rebuilt rename to collection_details`.execute(db);
  // As migration 0010 made it: the collections only opened by id, read without the rest.
  await sql`create index collection_details_opened on collection_details (account, id)
    where type <> 'integrated'`.execute(db);
  // The dropped table's statistics went with it: a sample now, as a scan's end takes them, not at the next one.
  const { analysis_limit: limit } = (await sql<{ analysis_limit: number }>`pragma analysis_limit`.execute(db)).rows[0]!;
  await sql`pragma analysis_limit = 400`.execute(db);
  await sql`analyze collection_details`.execute(db);
  await sql`pragma analysis_limit = ${sql.lit(limit)}`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'sqlite') await rebuild(db, false);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'sqlite') await rebuild(db, true);
}
