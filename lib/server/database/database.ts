import 'server-only';
import type { Clock } from '../clock';
import { describeTarget, type AppDb, type Connection, type DatabaseTarget, type StoreFault } from './connect';
import { actOnFault, reopen, replaced } from './database-fault';
import { heldFailure } from './database-hold';
import { drop, openConnection } from './database-open';
import { newDatabaseState, type DatabaseLog } from './database-state';
import { firstInLine, readStats, type ReadStats } from './sqlite-reads';

export { RECONNECT_FAST_FOR_MS, RECONNECT_FIRST_MS, RECONNECT_MS, REOPEN_MS } from './database-hold';
export { codeOf, type DatabaseLog } from './database-state';

/**
 * Where a request reads what the application keeps. On SQLite, the reads thread the searches use, not the
 * writer's one connection, which a sync's transaction holds for as long as it writes a page; a caller's
 * committed write is read back there (WAL: each read sees every commit before it). `first` (saved views:
 * every page's navigation and the list's default view) sends its statements first in line, ahead of the
 * searches waiting for the thread. PostgreSQL's main pool has connections enough (a sync's transaction
 * holds one), and its reads pool would cut an audit log's count at 2 s: the main pool.
 */
export const ownReads = (connection: Connection, { first = false } = {}): AppDb =>
  connection.dialect === 'sqlite' && connection.reads
    ? first
      ? firstInLine(connection.reads)
      : connection.reads
    : connection.db;

/**
 * The application's one database in this process (the runtime builds it): the index, the audit log, the
 * drift report and whatever comes later are tables in it, reached through the connection it holds. It
 * connects and migrates on first use, and owns what can go wrong with the file or the server:
 *
 *   closed ──open()──▶ open ──fault: damaged──▶ file set aside, closed (the next open starts it again)
 *     ▲   ◀─failed: held 1 or 10 s (no answer), 60 s (else)─────────┘ │
 *     └──────────────fault: unwritable, unreachable: closed, held as a failure──────┘
 *
 * A failure is remembered with its retry time: until then `open()` throws it again at once and
 * `available()` answers null, so writers (the audit log) keep their entries and ask later.
 *
 * Its state is one `DatabaseState`; opening and dropping the connection live in database-open.ts, how long
 * a failure holds it closed in database-hold.ts, and acting on a fault in database-fault.ts.
 */
export function createDatabase({ target, clock, log }: { target: DatabaseTarget; clock: Clock; log: DatabaseLog }) {
  const state = newDatabaseState(target, describeTarget(target), clock, log);
  const database = {
    target,
    /** Where it is, for logs and the operator: the file, or host, port and database; never credentials. */
    where: state.where,
    /** The open database, connected and migrated on first use; the last failure's error until its retry time. */
    open(): Promise<Connection> {
      return openConnection(state);
    },
    /** The open database, or null while it is not (opening failed, held closed after a fault). */
    available(): Promise<AppDb | null> {
      return database.open().then(
        (c) => c.db,
        () => null,
      );
    },
    /**
     * Where a request reads what the application keeps (`ownReads`), or null while the database is not open.
     */
    readable(): Promise<AppDb | null> {
      return database.open().then(
        (c) => ownReads(c),
        () => null,
      );
    },
    /** The last open's or fault's error while the database is held closed; null when it may be opened. */
    failure(): { error: unknown; until: number } | null {
      return heldFailure(state);
    },
    /** How SQLite's reads thread's queue stands, and what its reads waited (null on PostgreSQL, or while closed). */
    reads(): ReadStats | null {
      return state.connection?.reads ? readStats(state.connection.reads) : null;
    },
    /** What SQLite's WAL checkpoints thread copied, and whether it runs (null on PostgreSQL, or while closed). */
    checkpoints() {
      return state.connection?.checkpoints?.stats() ?? null;
    },
    /** Whether an open since the last call set a file aside (the index then says it was rebuilt). */
    takeSetAside(): boolean {
      const was = state.setAside;
      state.setAside = false;
      return was;
    },
    /** The SQLite file we opened is no longer the one at its path (deleted or replaced under us). */
    replaced(): boolean {
      return replaced(state);
    },
    /**
     * What a database error means, acted on: `damaged` sets the file aside and closes (the next open starts
     * an empty one); `unwritable` and `unreachable` close and hold the database closed until the retry time;
     * `other` (a busy file, a deadlock: passing) and null (not the database's) change nothing.
     */
    fault(error: unknown): Promise<StoreFault | null> {
      return actOnFault(state, error);
    },
    /** Closes the connection; `damaged` moves the file aside first. The next `open()` connects again. */
    reopen(why: string, damaged = false): Promise<void> {
      return reopen(state, why, damaged);
    },
    async close(): Promise<void> {
      state.closed = true;
      await drop(state);
    },
  };
  return database;
}

export type Database = ReturnType<typeof createDatabase>;
