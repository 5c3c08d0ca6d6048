import 'server-only';
import { sql } from 'kysely';
import type { AppDb } from './connect';
import type { Dialect } from './dialect';

/**
 * The database's own time, in milliseconds since the epoch: the one clock of every replica for what they
 * compare with each other (when the sync's lease lapses, when a row was last seen, when a scan began), so
 * replicas whose clocks differ by minutes neither take the lease early nor hide rows. PostgreSQL's is the
 * server's (`clock_timestamp()`, not the transaction's start); SQLite's is its host's, where every process
 * that opens the file runs.
 */
export async function databaseNow(db: AppDb, dialect: Dialect): Promise<number> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{ ms: number }>`select cast(unixepoch('subsec') * 1000 as integer) as ms`.execute(db)
      : await sql<{ ms: string }>`select floor(extract(epoch from clock_timestamp()) * 1000)::bigint as ms`.execute(db);
  return Number(rows[0]!.ms);
}
