import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '@/lib/server/database/dialect';

/**
 * How many rows hold each name token, kept by PostgreSQL itself (statement triggers with transition tables on
 * `contact_tokens`: every insert and delete, whichever code or replica ran it, counted in the same
 * transaction, so a read sees the count and the rows agree). A search by one common name word counts its
 * token's rows ('José': 41,483 keys of `contact_tokens_pk`, 10-12 ms of an index-only scan at 1,000,000, a
 * third of the search), and so does a name's start for its one large form ('Oka': 'Okafor', 50,494 keys,
 * 7.6-9 ms): read here, one row. What it reveals of a stolen index is nothing new: the same counts follow
 * from `contact_tokens`' rows (SECURITY.md). Rows of a count fallen to 0 go (an account pruned leaves none).
 * SQLite counts a token's range in-process (~4 ms): nothing to do there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  // No write between the counts read below and the triggers that keep them (replicas still running the
  // version before): the table's writers wait for this transaction (a few seconds at 1,000,000), its readers
  // do not. The lock may wait for a leader's vacuum (~25 s at 1,000,000), longer than the connection's 15 s.
  await sql`set local lock_timeout = '2min'`.execute(db);
  await sql`lock table contact_tokens in share row exclusive mode`.execute(db);
  // The counts must be read after the lock: at a stricter isolation the transaction's snapshot is older (the
  // migrator's first read) and would miss what was written since, a count short for ever.
  const { rows } = await sql<{ level: string }>`select current_setting('transaction_isolation') as level`.execute(db);
  if (rows[0]?.level !== 'read committed')
    throw new Error(
      `migration 0023 counts name tokens under a lock and needs the default isolation, read committed (this session: ${rows[0]?.level})`,
    );
  await sql`create table name_counts (
    account integer not null,
    token text collate "C" not null,
    n bigint not null,
    primary key (account, token)
  )`.execute(db);
  await sql`insert into name_counts (account, token, n)
    select account, token, count(*) from contact_tokens where kind = 'name' group by account, token`.execute(db);
  // An account's writes are one at a time already (the index's advisory lock per account, every replica's); in
  // token order besides, so a statement takes its counts' row locks in one order.
  await sql`create function name_counts_added() returns trigger language plpgsql as $$
    begin
      insert into name_counts as c (account, token, n)
        select account, token, count(*) from added where kind = 'name' group by account, token order by account, token
        on conflict (account, token) do update set n = c.n + excluded.n;
      return null;
    end $$`.execute(db);
  await sql`create function name_counts_removed() returns trigger language plpgsql as $$
    begin
      insert into name_counts as c (account, token, n)
        select account, token, -count(*) from removed where kind = 'name' group by account, token
          order by account, token
        on conflict (account, token) do update set n = c.n + excluded.n;
      -- A statement of its own: a CTE's update is not seen by the statement it is part of.
      delete from name_counts as c
        using (select distinct account, token from removed where kind = 'name') as g
        where c.account = g.account and c.token = g.token and c.n <= 0;
      return null;
    end $$`.execute(db);
  await sql`create trigger contact_tokens_counted_in after insert on contact_tokens
    referencing new table as added for each statement execute function name_counts_added()`.execute(db);
  await sql`create trigger contact_tokens_counted_out after delete on contact_tokens
    referencing old table as removed for each statement execute function name_counts_removed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`drop trigger contact_tokens_counted_out on contact_tokens`.execute(db);
  await sql`drop trigger contact_tokens_counted_in on contact_tokens`.execute(db);
  await sql`drop function name_counts_removed()`.execute(db);
  await sql`drop function name_counts_added()`.execute(db);
  await sql`drop table name_counts`.execute(db);
}
