import 'server-only';
import type { Transaction } from 'kysely';
import type { AppDb, Connection } from '../../database/connect';
import { databaseNow } from '../../database/clock';
import { lockIndexWrites, type Dialect } from '../../database/dialect';
import { aheadSettled } from '../../database/send-ahead';
import type { AppDatabase } from '../../database/schema';
import type { BlindKeys } from '../shared/blind';
import { createWordMemory, type WordMemory } from './name-words';

/**
 * What every part of the index's store works with (store.ts puts it together): the database, the
 * account's id and key, the blind keys, and the one way to write.
 */
export type StoreContext = {
  db: AppDb;
  dialect: Dialect;
  connection: Connection;
  /** The account's id in this store (rows carry it). */
  account: number;
  /** The account's non-reversible key (sealed contacts are bound to it). */
  accountKey: string;
  keys: BlindKeys;
  /** The name words whose forgiving forms this process has written (name-words.ts). */
  words: WordMemory;
  /**
   * Whether a changed record's history entry is written (always, but in `npm run bench:history`'s
   * side-by-side measure of what the history costs the sync's writes).
   */
  keepHistory: boolean;
  /** The database's time (database/clock.ts), in ms: what replicas compare with each other. */
  now(): Promise<number>;
  /**
   * A write transaction: on PostgreSQL it first takes the account's write lock (dialect.ts), and its statements
   * sent ahead are settled before its commit (send-ahead.ts).
   */
  write<T>(fn: (trx: Transaction<AppDatabase>) => Promise<T>): Promise<T>;
};

export function storeContext(
  connection: Connection,
  account: number,
  accountKey: string,
  keys: BlindKeys,
  /** The database's clock, faked (tests): else the database is asked. */
  clock?: () => number,
  keepHistory = true,
): StoreContext {
  const { db, dialect } = connection;
  return {
    db,
    dialect,
    connection,
    account,
    accountKey,
    keys,
    words: createWordMemory(),
    keepHistory,
    now: clock ? async () => clock() : () => databaseNow(db, dialect),
    write: (fn) =>
      db.transaction().execute(async (trx) => {
        await lockIndexWrites(trx, account);
        return aheadSettled(trx, () => fn(trx));
      }),
  };
}

export const TOKENS_PER_STATEMENT = 2_000;

/** A turn of the event loop: SQLite's writes are synchronous, and requests waiting meanwhile go first. */
export const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

export const chunks = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
