import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '@/lib/server/database/dialect';

/**
 * SQLite: an account's number is never handed out again, as PostgreSQL's identity never hands one out twice.
 * A rowid key numbers a new row one past the highest left, so when a change of INDEX_SECRET emptied the index
 * the new account took the old one's number, and a replica still on the old secret (until its health check saw
 * the change) wrote its rows into the new account's. With AUTOINCREMENT, SQLite keeps the highest number ever
 * used (`sqlite_sequence`), starting here from the highest any row names (the accounts kept, and rows written
 * under one that no longer exists: the pruning deletes those). A table of a few rows, copied.
 */
async function rebuild(db: Kysely<unknown>, autoincrement: boolean) {
  await sql`create table accounts_0028 (
    id integer primary key ${sql.raw(autoincrement ? 'autoincrement' : '')},
    key text not null unique,
    seal_key text,
    opened_at text
  )`.execute(db);
  await sql`insert into accounts_0028 (id, key, seal_key, opened_at)
    select id, key, seal_key, opened_at from accounts order by id`.execute(db);
  await sql`drop table accounts`.execute(db);
  await sql`alter table accounts_0028 rename to accounts`.execute(db);
  if (!autoincrement) return;
  const { rows } = await sql<{ high: number | null }>`select max(
      coalesce((select max(id) from accounts), 0),
      coalesce((select max(account) from sync_state), 0),
      coalesce((select max(account) from collections), 0)
    ) as high`.execute(db);
  const high = Number(rows[0]?.high ?? 0);
  await sql`delete from sqlite_sequence where name in ('accounts', 'accounts_0028')`.execute(db);
  await sql`insert into sqlite_sequence (name, seq) values ('accounts', ${high})`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'sqlite') await rebuild(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'sqlite') await rebuild(db, false);
}
