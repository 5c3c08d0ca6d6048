import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '@/lib/server/database/dialect';

/**
 * SQLite: each narrow row keeps the integer its reference's trigrams are filed under (`fragment_row`, the
 * rowid of its `reference_fragment_rows` row, migration 0011), so the triggers that keep the fragments find
 * it on the row itself, and the unique tree that found it by (account, id) goes. That tree took an entry per
 * new record at a key that follows no order a scan writes in: on a copy of the 1,000,000 index, 1,000 new narrow
 * rows with random ids wrote 2,903-3,182 pages before, 1,895-2,235 after (but when the fragments' own segments
 * merge, which they do as often either way). `reference_fragment_rows` is now written only at its end (a new
 * rowid), and read by rowid (a search's match to its row). PostgreSQL keeps its fragments in a GIN index of the
 * key itself: nothing to do.
 *
 * Every narrow row is written once here, under the migrations' write lock: with 0025, 22.5 s on a copy of the
 * 1,000,000 index (an upgrade's first start waits for it once). The column is not part of the typed schema:
 * only the triggers read or write it.
 */
const TRIGGERS = ['reference_fragments_insert', 'reference_fragments_update', 'reference_fragments_delete'];

async function dropTriggers(db: Kysely<unknown>) {
  for (const trigger of TRIGGERS) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await dropTriggers(db);
  await sql`alter table collections add column fragment_row integer`.execute(db);
  await sql`update collections set fragment_row = (select r.rowid from reference_fragment_rows as r
    where r.account = collections.account and r.id = collections.id)`.execute(db);
  await sql`drop index reference_fragment_rows_key`.execute(db);
  // A new row's entry is the table's last (its rowid one more than the largest), found again as the largest.
  await sql`create trigger reference_fragments_insert after insert on collections begin
    insert into reference_fragment_rows (account, id) values (new.account, new.id);
    insert into reference_fragments (rowid, reference_key)
      values ((select max(rowid) from reference_fragment_rows), new.reference_key);
    update collections set fragment_row = (select max(rowid) from reference_fragment_rows)
      where account = new.account and id = new.id;
  end`.execute(db);
  await sql`create trigger reference_fragments_update after update of reference_key on collections
    when old.reference_key is not new.reference_key begin
    delete from reference_fragments where rowid = old.fragment_row;
    insert into reference_fragments (rowid, reference_key) values (old.fragment_row, new.reference_key);
  end`.execute(db);
  await sql`create trigger reference_fragments_delete after delete on collections begin
    delete from reference_fragments where rowid = old.fragment_row;
    delete from reference_fragment_rows where rowid = old.fragment_row;
  end`.execute(db);
}

/** Back to migration 0011's triggers, which find a row's entry by (account, id). */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await dropTriggers(db);
  await sql`create unique index reference_fragment_rows_key on reference_fragment_rows (account, id)`.execute(db);
  await sql`alter table collections drop column fragment_row`.execute(db);
  const key = (row: 'new' | 'old') =>
    sql.raw(`(select rowid from reference_fragment_rows where account = ${row}.account and id = ${row}.id)`);
  await sql`create trigger reference_fragments_insert after insert on collections begin
    insert into reference_fragment_rows (account, id) values (new.account, new.id);
    insert into reference_fragments (rowid, reference_key) values (${key('new')}, new.reference_key);
  end`.execute(db);
  await sql`create trigger reference_fragments_update after update of reference_key on collections
    when old.reference_key is not new.reference_key begin
    delete from reference_fragments where rowid = ${key('old')};
    insert into reference_fragments (rowid, reference_key) values (${key('new')}, new.reference_key);
  end`.execute(db);
  await sql`create trigger reference_fragments_delete after delete on collections begin
    delete from reference_fragments where rowid = ${key('old')};
    delete from reference_fragment_rows where account = old.account and id = old.id;
  end`.execute(db);
}
