import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '@/lib/server/database/dialect';

/**
 * Fragments of references (contract 7a, `referencePart`): any 3 or more consecutive characters anywhere
 * in a reference find it. References are not contact data (they are stored readable already).
 *
 * SQLite: an FTS5 index of the reference keys' trigrams, contentless (the text stays in `collections`),
 * `detail=none` (which trigrams, not where: the smallest such index; a match is checked against the key
 * itself), kept by triggers on `collections` so every write path keeps it without knowing it exists, and
 * joined through a table that gives each row an integer key (the rows are WITHOUT ROWID).
 *
 * PostgreSQL: `pg_trgm`'s GIN index over the keys, read by `LIKE '%…%'`. The extension is trusted (any
 * owner of the database may create it since PostgreSQL 13); where it cannot be created the migration goes
 * on without it and a fragment search reads the rows instead (slower, still correct), which `/status`'s
 * store line does not hide: the index is named in `\di`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    // The rows are WITHOUT ROWID: FTS5 keys its entries by an integer, so each row gets one here.
    await sql`create table reference_fragment_rows (
      rowid integer primary key, account integer not null, id text not null
    )`.execute(db);
    await sql`create unique index reference_fragment_rows_key on reference_fragment_rows (account, id)`.execute(db);
    await sql`create virtual table reference_fragments using fts5(
      reference_key, content='', contentless_delete=1, tokenize='trigram', detail='none'
    )`.execute(db);
    await sql`insert into reference_fragment_rows (account, id) select account, id from collections`.execute(db);
    await sql`insert into reference_fragments (rowid, reference_key)
      select r.rowid, c.reference_key from reference_fragment_rows as r
      join collections as c on c.account = r.account and c.id = r.id`.execute(db);
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
    return;
  }
  // In the migrations' transaction: a savepoint keeps a refused extension from failing the others.
  await sql`savepoint reference_fragments`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index collections_reference_trgm on collections using gin (reference_key gin_trgm_ops)`.execute(
      db,
    );
    await sql`release savepoint reference_fragments`.execute(db);
  } catch {
    await sql`rollback to savepoint reference_fragments`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    for (const trigger of ['reference_fragments_insert', 'reference_fragments_update', 'reference_fragments_delete'])
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
    await sql`drop table if exists reference_fragments`.execute(db);
    await sql`drop table if exists reference_fragment_rows`.execute(db);
    return;
  }
  await sql`drop index if exists collections_reference_trgm`.execute(db);
}
