import 'server-only';
import { sql } from 'kysely';

/**
 * The ids of the account's collections opened by their id (not integrated), as a SQLite subquery through
 * their partial index (migration 0010), named: until the first full scan's statistics exist (a whole first
 * build), SQLite's planner took the details' key instead, which also leads with the account, and read every
 * details row of it (~160 ms at 350,000 rows) for these few. PostgreSQL plans it from its own statistics.
 */
export const openedIdsOnSqlite = (account: number) =>
  sql<string>`(select id from collection_details indexed by collection_details_opened
    where account = ${account} and type <> 'integrated')`;
