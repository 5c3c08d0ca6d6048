import 'server-only';
import { sql } from 'kysely';

/**
 * SQLite's triggers that keep a reference's trigrams (migration 0011) as `collections` changes: every write
 * path keeps them without knowing they exist. A bulk first scan drops the first two while it writes and puts
 * them back when it has indexed its rows' fragments in one pass (search-index/store-records.ts).
 */
const key = (row: 'new' | 'old') =>
  sql.raw(`(select rowid from reference_fragment_rows where account = ${row}.account and id = ${row}.id)`);

export const FRAGMENT_TRIGGERS = {
  reference_fragments_insert: sql`create trigger reference_fragments_insert after insert on collections begin
      insert into reference_fragment_rows (account, id) values (new.account, new.id);
      insert into reference_fragments (rowid, reference_key) values (${key('new')}, new.reference_key);
    end`,
  reference_fragments_update: sql`create trigger reference_fragments_update after update of reference_key on collections
      when old.reference_key is not new.reference_key begin
      delete from reference_fragments where rowid = ${key('old')};
      insert into reference_fragments (rowid, reference_key) values (${key('new')}, new.reference_key);
    end`,
  reference_fragments_delete: sql`create trigger reference_fragments_delete after delete on collections begin
      delete from reference_fragments where rowid = ${key('old')};
      delete from reference_fragment_rows where account = old.account and id = old.id;
    end`,
};
