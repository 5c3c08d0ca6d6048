import 'server-only';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { READ_TIMEOUT_CODE, READS_CLOSED_CODE, sqliteReads } from './sqlite-reads';
import { sqliteWriter, WRITER_CLOSED_CODE, WRITER_STOPPED_CODE } from './sqlite-writer';
import { AUTOCHECKPOINT_PAGES, type CheckpointThread } from './sqlite-checkpoints';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import type { AppDatabase } from './schema';
import type { DatabaseTarget } from '../env';
import type { Dialect } from './dialect';

export { dialectOf, type Dialect } from './dialect';

/** The application's database as every room queries it. */
export type AppDb = Kysely<AppDatabase>;

/**
 * The connection to the application's database (env.ts `DatabaseTarget`): the index, its roll-ups, sync
 * state, the audit log and the drift report, all reached through the same Kysely queries on SQLite or
 * PostgreSQL; what differs between the two is here, in dialect.ts and in the migrations.
 */
export type { DatabaseTarget };

export type Connection = {
  db: AppDb;
  /** The application's searches and lists read here (`openReads`), when it opened one; else through `db`. */
  reads?: AppDb;
  dialect: Dialect;
  /**
   * SQLite only: one statement run synchronously, for a goodbye when the process exits (nothing
   * asynchronous runs then): on a connection of its own when the writer runs on its thread.
   */
  runNow?: (sql: string, parameters: readonly unknown[]) => void;
  /** SQLite's WAL checkpoints on a thread of their own (sqlite-checkpoints.ts), when its opener started one. */
  checkpoints?: CheckpointThread;
};

/**
 * Where a target points, for logs and the operator: the file, or the PostgreSQL host, port and database,
 * never the user, the password or the query string of the URL.
 */
export function describeTarget(target: DatabaseTarget): string {
  if (target.kind === 'sqlite') return `SQLite file ${target.path}`;
  try {
    const url = new URL(target.url);
    return `PostgreSQL at ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** pg's text answers for 64-bit integers and numerics: counts and sums here stay far below 2^53. */
const NUMERIC_TYPES = [20 /* int8 */, 1700 /* numeric */];
const asNumber = (value: string) => Number(value);

/**
 * The writer's settings. WAL: readers never wait for the sync's writes; a second process on the same file
 * waits its turn. The index is derived data: a crash of the process loses nothing in WAL mode, and the one
 * thing synchronous=OFF risks (a damaged file after a power cut) is handled by setting it aside and
 * rebuilding. Without the fsyncs, and with checkpoints every ~100 MB of WAL instead of 4 MB, a bulk sync
 * writes 1.8x as many rows a second (measured: 2,778 -> 4,995 rows/s at 200,000 rows). A 32 MB page cache:
 * the OS keeps the file's pages, and with the amount trees put off during a first scan (store-records.ts) a
 * larger one bought nothing: 1,000,000 from the sandbox in 4.16 / 4.08 / 3.98 min at 128 / 64 / 32 MB, the
 * dashboard's RSS growing 390 / 286 / 265 MB (2026-11-26).
 */
export const WRITER_CACHE_SIZE = -32_768;
const WRITER_PRAGMAS = [
  // First: turning a new file to WAL takes its lock, which another process opening it may hold a moment.
  'busy_timeout = 5000',
  'journal_mode = WAL',
  'synchronous = OFF',
  `wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`,
  `cache_size = ${WRITER_CACHE_SIZE}`,
];

/** How long a goodbye at the process's exit waits for the file's write lock (the writer's thread may hold it). */
const GOODBYE_BUSY_MS = 1_000;

/**
 * A statement run synchronously on a connection of its own, opened and closed for it: a process's goodbye
 * (its `exit` event, where nothing asynchronous runs). Fails when the file is gone or its lock stays held.
 */
function runNowOn(path: string) {
  return (text: string, parameters: readonly unknown[]) => {
    const sqlite = new Database(path, { fileMustExist: true });
    try {
      sqlite.pragma(`busy_timeout = ${GOODBYE_BUSY_MS}`);
      sqlite.prepare(text).run(...parameters);
    } finally {
      sqlite.close();
    }
  };
}

function openSqlite(path: string, { thread }: { thread: boolean }): Connection {
  if (thread) return { db: sqliteWriter(path, WRITER_PRAGMAS), dialect: 'sqlite', runNow: runNowOn(path) };
  mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  try {
    for (const pragma of WRITER_PRAGMAS) sqlite.pragma(pragma);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return {
    db: new Kysely<AppDatabase>({ dialect: new SqliteDialect({ database: sqlite }) }),
    dialect: 'sqlite',
    runNow: (text, parameters) => void sqlite.prepare(text).run(...parameters),
  };
}

/** The pool's settings for a target; the export's reader thread connects with the same ones. */
export function postgresConfig(target: Extract<DatabaseTarget, { kind: 'postgres' }>): pg.PoolConfig {
  return {
    connectionString: target.url,
    max: target.poolMax,
    // `require`: TLS with the server's certificate checked against Node's CAs (add a private CA with
    // NODE_EXTRA_CA_CERTS). Otherwise what the URL says (`?sslmode=`), else plain TCP.
    ...(target.ssl ? { ssl: { rejectUnauthorized: true } } : {}),
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // A connection the network lost is noticed by the kernel in minutes (10 s, then 9 probes), not hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: 'collections-console',
    // A replica whose host vanished mid-write (no reset sent) keeps its transaction and the index's write
    // lock until the server notices: waiting writers give up after 15 s, and the server ends a transaction
    // left idle for a minute, so the lock is back within a minute instead of the kernel's keepalive (~11 min).
    options: '-c lock_timeout=15000 -c idle_in_transaction_session_timeout=60000',
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        NUMERIC_TYPES.includes(oid) ? asNumber : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  };
}

/** The longest one statement of an index read may run on PostgreSQL (the reads' pool). */
export const READ_STATEMENT_TIMEOUT_MS = 2_000;

function pool(config: pg.PoolConfig) {
  const pool = new pg.Pool(config);
  // An idle client that loses its server (a restart, a failover) must not crash the process: the pool
  // drops it and the next query connects again.
  pool.on('error', () => {});
  // The same for a client in use when its server goes away: its query fails, the process stays up.
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Kysely<AppDatabase>({ dialect: new PostgresDialect({ pool }) });
}

function openPostgres(target: Extract<DatabaseTarget, { kind: 'postgres' }>): Connection {
  return { db: pool(postgresConfig(target)), dialect: 'postgres' };
}

/**
 * Where the application's searches and lists read (`Connection.reads`), beside its connection: SQLite, a
 * pool of worker threads with read-only connections (sqlite-reads.ts: a statement holds a thread, never the
 * event loop); PostgreSQL, a pool of its own whose statements are cut off after READ_STATEMENT_TIMEOUT_MS.
 * A read past its bound fails (`isStatementTimeout`): the caller answers `index_busy`. Closed with
 * `Kysely.destroy()` by whoever opened it (database.ts).
 *
 * Its statements plan no parallel workers: a read of tens of milliseconds waits longer for workers to start
 * and merge than it saves, and each takes a core from the other users' reads. At 1,000,000 collections on 2
 * cores, the page of `INV-2026-1` (its 55,022 references' newest rows, sorted from their index) took 71-186 ms
 * with 2 workers and 14-16 ms without.
 */
export function openReads(target: DatabaseTarget): AppDb {
  if (target.kind === 'sqlite') return sqliteReads(target.path, { timeoutMs: READ_STATEMENT_TIMEOUT_MS });
  const config = postgresConfig(target);
  return pool({
    ...config,
    options: `${config.options} -c statement_timeout=${READ_STATEMENT_TIMEOUT_MS} -c max_parallel_workers_per_gather=0`,
    application_name: 'collections-console reads',
  });
}

/**
 * Whether an error is a read cut off at its bound: PostgreSQL cancelling a statement past its timeout
 * (SQLSTATE 57014), or SQLite's read thread ended for it (`INDEX_READ_TIMEOUT`).
 */
export const isStatementTimeout = (error: unknown) => {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '57014' || code === READ_TIMEOUT_CODE;
};

/**
 * Connects to the target. `writerThread` (the application's database: database.ts) runs SQLite's statements
 * on a thread of their own (sqlite-writer.ts); tools and tests that open a store of their own run them on
 * theirs, as the same SQL.
 */
export function connect(target: DatabaseTarget, { writerThread = false }: { writerThread?: boolean } = {}): Connection {
  return target.kind === 'sqlite' ? openSqlite(target.path, { thread: writerThread }) : openPostgres(target);
}

/**
 * What a database error means for the index: `damaged` (a SQLite file to set aside and rebuild),
 * `unwritable` (read-only, disk full: off until the operator acts, retried every minute), `unreachable`
 * (PostgreSQL down, refusing or restarting: the pool reconnects by itself), `other` (the store's, passing:
 * a busy file, a deadlock), or null (not the store's: an upstream fault, a bug).
 */
export type StoreFault = 'damaged' | 'unwritable' | 'unreachable' | 'other';

const NETWORK_CODES = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE)$/;
/** pg's own errors without a code: a lost or refused connection, a pool that timed out. */
const PG_CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end/i;

/**
 * A statement of a read already under way that came after its connection was closed: by a fault the read's
 * first statements met (database.ts `drop`; Kysely's "driver has already been destroyed"), a reopen, or the
 * process's end (the writer's `WRITER_CLOSED_CODE`, the reads pool's `READS_CLOSED_CODE`). Not a fault of its own, nothing to act on (acting on it
 * would close the connection opened since): the read answers 503 as the fault's first statement did.
 */
export function closedUnder(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (code === WRITER_CLOSED_CODE || code === READS_CLOSED_CODE) return true;
  return /^driver has already been destroyed$/.test(String((error as { message?: unknown })?.message ?? ''));
}

export function storeFault(error: unknown): StoreFault | null {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== 'string' || !code) {
    const message = String((error as { message?: unknown })?.message ?? '');
    return PG_CONNECTION_MESSAGES.test(message) ? 'unreachable' : null;
  }
  // The writer's thread stopped (sqlite-writer.ts): opened again soon, with a new one.
  if (code === WRITER_STOPPED_CODE) return 'unreachable';
  if (code.startsWith('SQLITE_')) {
    if (/CORRUPT|NOTADB/.test(code)) return 'damaged';
    if (/FULL|READONLY|IOERR|CANTOPEN/.test(code)) return 'unwritable';
    return 'other';
  }
  if (NETWORK_CODES.test(code)) return 'unreachable';
  if (!(error instanceof pg.DatabaseError) && !/^[0-9A-Z]{5}$/.test(code)) return null;
  // SQLSTATE classes: 08 connection, 57P shutting down / cannot connect now, 28 credentials, 3D000 no
  // such database; 53 resources (disk full), 25006 read-only transaction (a standby).
  if (/^(08|57P|28)/.test(code) || code === '3D000') return 'unreachable';
  if (code.startsWith('53') || code === '25006') return 'unwritable';
  return 'other';
}
