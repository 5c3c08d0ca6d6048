import 'server-only';
import { statSync } from 'node:fs';
import type { Clock } from '../clock';
import {
  describeTarget,
  openReads,
  storeFault,
  type AppDb,
  type Connection,
  type DatabaseTarget,
  type StoreFault,
} from './connect';
import { openMigrated, setFileAside } from './migrate';
import { checkpointThread } from './sqlite-checkpoints';
import { firstInLine, readStats, type ReadStats } from './sqlite-reads';

/**
 * Where a request reads what the application keeps. On SQLite, the reads thread the searches use, not the
 * writer's one connection, which a sync's transaction holds for hundreds of milliseconds in a first scan; a
 * caller's committed write is read back there (WAL: each read sees every commit before it). `first` (saved
 * views: every page's navigation and the list's default view) sends its statements first in line, ahead of
 * the searches waiting for the thread. PostgreSQL's main pool has connections enough (a sync's transaction
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
 */
export type DatabaseLog = {
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
};

/**
 * A database that does not answer (restarting, failing over) is asked again sooner than a full disk: every
 * second for the first RECONNECT_FAST_FOR_MS of the outage, then every RECONNECT_MS. A fast restart of
 * PostgreSQL is back in a few seconds, and an attempt costs a refused connection: one wait of 10 s from the
 * fault kept search off up to 10 s after the server answered again.
 */
export const RECONNECT_FIRST_MS = 1_000;
export const RECONNECT_FAST_FOR_MS = 30_000;
export const RECONNECT_MS = 10_000;
export const REOPEN_MS = 60_000;

/** An error's code for the operator: a SQLite or SQLSTATE code, or a system one; never its message. */
export const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[\w-]{1,40}$/.test(code) ? code : 'unknown';
};

export function createDatabase({ target, clock, log }: { target: DatabaseTarget; clock: Clock; log: DatabaseLog }) {
  const path = target.kind === 'sqlite' ? target.path : null;
  const where = describeTarget(target);
  let connection: Connection | null = null;
  let inode = 0;
  let setAside = false;
  let opening: Promise<Connection> | null = null;
  let failure: { error: unknown; until: number } | null = null;
  let closed = false;
  /** When the database stopped answering (the first fault or failed open since it last opened), or null. */
  let unansweredSince: number | null = null;

  /** Holds the database closed after `error`; false when it already is (nothing new to say). */
  const hold = (error: unknown): boolean => {
    const now = clock.now();
    // Statements in flight when the server went away fail together: one outage, held (and logged) once.
    if (failure && now < failure.until) return false;
    if (storeFault(error) !== 'unreachable') {
      failure = { error, until: now + REOPEN_MS };
      return true;
    }
    unansweredSince ??= now;
    const wait = now - unansweredSince < RECONNECT_FAST_FOR_MS ? RECONNECT_FIRST_MS : RECONNECT_MS;
    failure = { error, until: now + wait };
    return true;
  };

  /** Closes the connection (not awaited by callers that must not wait on a pool whose server went away). */
  function drop(): Promise<void> {
    const current = connection;
    connection = null;
    return current
      ? Promise.all([current.checkpoints?.close(), current.db.destroy(), current.reads?.destroy()]).then(
          () => {},
          () => {},
        )
      : Promise.resolve();
  }

  const database = {
    target,
    /** Where it is, for logs and the operator: the file, or host, port and database; never credentials. */
    where,
    /** The open database, connected and migrated on first use; the last failure's error until its retry time. */
    open(): Promise<Connection> {
      if (connection) return Promise.resolve(connection);
      if (closed) return Promise.reject(new Error('The database is closed'));
      if (failure && clock.now() < failure.until) return Promise.reject(failure.error);
      opening ??= openMigrated(target, clock.now, { writerThread: true })
        .then(async (opened) => {
          // Closed while it opened (a busy file is tried again for seconds): nothing is left open behind it.
          if (closed) {
            await opened.connection.db.destroy().catch(() => {});
            throw new Error('The database is closed');
          }
          connection = {
            ...opened.connection,
            reads: openReads(target),
            ...(path
              ? {
                  checkpoints: checkpointThread(path, {
                    onFailure: (why) =>
                      log.warn({ why, database: where }, "database: WAL checkpoints are back on the writer's thread"),
                  }),
                }
              : {}),
          };
          setAside ||= opened.setAside;
          inode = path ? statSync(path).ino : 0;
          failure = null;
          unansweredSince = null;
          if (opened.setAside)
            log.warn({ database: where }, 'database: a file this version cannot migrate was set aside');
          return connection;
        })
        .catch((error: unknown) => {
          // Closed on purpose meanwhile: no failure to hold or log.
          if (!closed) {
            hold(error);
            log.error({ code: codeOf(error), database: where }, 'database: cannot open');
          }
          throw error;
        })
        .finally(() => {
          opening = null;
        });
      return opening;
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
      return failure && clock.now() < failure.until ? failure : null;
    },
    /** How SQLite's reads thread's queue stands, and what its reads waited (null on PostgreSQL, or while closed). */
    reads(): ReadStats | null {
      return connection?.reads ? readStats(connection.reads) : null;
    },
    /** What SQLite's WAL checkpoints thread copied, and whether it runs (null on PostgreSQL, or while closed). */
    checkpoints() {
      return connection?.checkpoints?.stats() ?? null;
    },
    /** Whether an open since the last call set a file aside (the index then says it was rebuilt). */
    takeSetAside(): boolean {
      const was = setAside;
      setAside = false;
      return was;
    },
    /** The SQLite file we opened is no longer the one at its path (deleted or replaced under us). */
    replaced(): boolean {
      if (!path || !connection) return false;
      try {
        return statSync(path).ino !== inode;
      } catch {
        return true;
      }
    },
    /**
     * What a database error means, acted on: `damaged` sets the file aside and closes (the next open starts
     * an empty one); `unwritable` and `unreachable` close and hold the database closed until the retry time;
     * `other` (a busy file, a deadlock: passing) and null (not the database's) change nothing.
     */
    async fault(error: unknown): Promise<StoreFault | null> {
      const fault = storeFault(error);
      // A statement that came after the process closed the database on purpose: nothing to act on.
      if (closed) return fault;
      if (fault === 'damaged') {
        await database.reopen(`the database file is damaged (${codeOf(error)})`, true);
      } else if (fault === 'unwritable' || fault === 'unreachable') {
        if (hold(error))
          log.error({ code: codeOf(error), database: where }, 'database: fault; closed until it is fixed');
        // Not awaited: a pool whose server stopped answering may take long to end its clients.
        void drop();
      }
      return fault;
    },
    /** Closes the connection; `damaged` moves the file aside first. The next `open()` connects again. */
    async reopen(why: string, damaged = false): Promise<void> {
      log.warn({ why, database: where }, 'database: reopening');
      await drop();
      failure = null;
      if (damaged && path) setFileAside(path, 'damaged', clock.now(), inode || null);
    },
    async close(): Promise<void> {
      closed = true;
      await drop();
    },
  };
  return database;
}

export type Database = ReturnType<typeof createDatabase>;
