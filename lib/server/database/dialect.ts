import 'server-only';
import { sql, SqliteAdapter, type QueryExecutorProvider, type RawBuilder } from 'kysely';

/** Which of the two stores an open database is: the queries are shared, a few statements are not. */
export type Dialect = 'sqlite' | 'postgres';

export const dialectOf = (db: QueryExecutorProvider): Dialect =>
  db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';

/** A unique-constraint violation on either store: SQLite's and PostgreSQL's codes. */
export const isUniqueViolation = (error: unknown) => {
  const code = (error as { code?: unknown })?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
};

/**
 * The text type of every column the index compares or orders: byte order on both stores. SQLite compares
 * text by bytes; PostgreSQL by the database's collation (often `en_US`, which skips punctuation and sorts
 * case-blind), which would break reference-prefix ranges, ISO-time order and keyset ties, and keep its
 * B-trees from serving a prefix. `COLLATE "C"` is byte order and the fastest to compare.
 */
export const textType = (db: QueryExecutorProvider): 'text' | RawBuilder<unknown> =>
  dialectOf(db) === 'sqlite' ? 'text' : sql`text collate "C"`;

/** The advisory lock's first key: "CC" and 1, the index's writes (the second key is the account). */
const INDEX_WRITES = 0x43430001;

/**
 * Serialises an account's index writes across replicas, for the rest of the transaction: a write reads
 * what a record was before it counts the change in the roll-ups, so two replicas writing one record at
 * once would count it twice (and upserting roll-up rows in different orders, deadlock). A slice is a few
 * milliseconds, so the wait is short. SQLite needs nothing: one process writes, one transaction at a time.
 */
export async function lockIndexWrites(trx: QueryExecutorProvider, account: number): Promise<void> {
  if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${INDEX_WRITES}, ${account})`.execute(trx);
}
