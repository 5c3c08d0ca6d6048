import 'server-only';
import { Worker } from 'node:worker_threads';
import { CompiledQuery, type DatabaseConnection, type Driver, type Kysely, type QueryResult } from 'kysely';
import { startClient } from '../threads/client';
import { sibling } from '../threads/start';
import type { AppDatabase } from './schema';
import type { WriteAnswer, WriteJob } from './sqlite-write-worker';
import { threadKysely } from './thread-kysely';

/**
 * The application's SQLite connection on a thread of its own (sqlite-write-worker.ts): a Kysely dialect
 * whose statements are compiled on the request thread and run on the writer's, in order, one at a time.
 * better-sqlite3 is synchronous, so on the request thread every write held the event loop for as long as
 * SQLite worked: a sync's page of 100 records ~40 ms at 1,000,000 rows (its B-tree pages and its commit),
 * and a write lock another process held up to `busy_timeout`. Here the request thread only waits for the
 * answer, and answers other requests meanwhile.
 *
 * A transaction is Kysely's: the connection is held (a mutex, as Kysely's own SQLite driver holds its one
 * connection) from `begin` to `commit`, its statements sent one after another. A write cannot be cut off
 * (SQLite cannot be interrupted from another thread, and a thread ended mid-transaction would keep its
 * locks for the process's life): there is no timeout. A thread that cannot open its file, or that stops,
 * fails every statement then and after with why (SQLite's code and `atOpen: true` for a file it could not
 * open, as `new Database()` threw it on the request thread; `WRITER_STOPPED_CODE` for a thread that stopped,
 * which `storeFault` reads as unreachable): the database closes and opens again (database.ts) with a new
 * thread, 10 s later.
 */
export const WRITER_STOPPED_CODE = 'INDEX_WRITER_STOPPED';
/**
 * A statement sent after the connection was closed on purpose (the database dropped it: a reopen, a fault,
 * the process's end): no fault of the database, and nothing to act on (`storeFault` reads it as none).
 */
export const WRITER_CLOSED_CODE = 'INDEX_WRITER_CLOSED';

type WriteResult = { rows: unknown[] } | { changes: number; lastInsertRowid: number | bigint };

/** How long the thread may take to close its connection (a statement in flight first ends) before it is ended. */
const CLOSE_MS = 10_000;

const stoppedError = (error: Error) => Object.assign(error, { code: WRITER_STOPPED_CODE });

export function createWriterThread(path: string, pragmas: string[]) {
  const client = startClient<WriteJob, WriteAnswer>({
    name: "the index writer's thread",
    bundled: (options) => new Worker(new URL('./sqlite-write-worker.ts', import.meta.url), { ...options }),
    source: sibling(import.meta.url, 'sqlite-write-worker.ts'),
    workerData: { path, pragmas },
    background: true,
    // A file it could not open keeps SQLite's code (and `atOpen`); any other end reads as unreachable.
    errorFor: ({ reason, error }) => (reason === 'open' ? error : stoppedError(error)),
  });
  let closing: Promise<void> | null = null;

  return {
    /**
     * Runs one statement on the writer's thread, after every statement sent before it (`ahead`: its caller
     * does not wait for it; see `WriteJob`).
     */
    async run(sql: string, parameters: readonly unknown[], ahead = false): Promise<WriteResult> {
      if (closing)
        throw Object.assign(new Error("The index writer's connection is closed"), { code: WRITER_CLOSED_CODE });
      const answer = await client.request({
        sql,
        parameters: [...parameters],
        ...(ahead ? { ahead: true as const } : {}),
      });
      return 'closed' in answer ? { rows: [] } : answer;
    },
    /** Closes the connection on its thread (after what was sent before), then ends the thread. */
    close(): Promise<void> {
      closing ??= (async () => {
        if (!client.down) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            client.request({ close: true }).catch(() => {}),
            new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_MS))),
          ]);
          clearTimeout(timer);
        }
        await client.end(new Error("The index writer's thread stopped"));
      })();
      return closing;
    },
  };
}
export type WriterThread = ReturnType<typeof createWriterThread>;

/** Statements to send without waiting for their answer (`sendAhead`, send-ahead.ts). */
const sentAhead = new WeakSet<CompiledQuery>();
/** Marks a compiled statement as sent ahead: inside a transaction, the writer's connection does not wait for it. */
export const markSentAhead = (compiled: CompiledQuery) => void sentAhead.add(compiled);

class WriterConnection implements DatabaseConnection {
  /** Between this connection's `begin` and its commit or rollback. */
  inTransaction = false;
  /**
   * The failure of a statement sent ahead in the transaction under way: the thread refuses what follows it
   * (sqlite-write-worker.ts), and this connection refuses it too, for a failure the thread never saw (a
   * parameter that could not be copied to it).
   */
  aheadFailure: Error | null = null;
  constructor(private readonly thread: WriterThread) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.aheadFailure && !/^\s*rollback\s*$/i.test(compiled.sql)) throw this.aheadFailure;
    if (this.inTransaction && sentAhead.has(compiled)) {
      this.thread.run(compiled.sql, compiled.parameters, true).catch((error: Error) => {
        this.aheadFailure ??= error;
      });
      // A turn of the event loop while the thread runs it: a transaction's statements, compiled one after
      // another with no answer to wait for, would otherwise hold the request thread for all of them.
      await new Promise<void>((resolve) => setImmediate(resolve));
      return { rows: [] };
    }
    const result = await this.thread.run(compiled.sql, compiled.parameters);
    if ('rows' in result) return { rows: result.rows as R[] };
    return {
      rows: [],
      numAffectedRows: BigInt(result.changes),
      insertId: BigInt(result.lastInsertRowid),
    };
  }
  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // Read whole on the thread, handed over a row at a time as Kysely's own SQLite driver does.
    const { rows } = await this.executeQuery<R>(compiled);
    for (const row of rows) yield { rows: [row] };
  }
}

/** The one connection, held by one caller at a time (a transaction from its `begin` to its end). */
class ConnectionMutex {
  private held: Promise<void> | null = null;
  private release: (() => void) | null = null;
  async lock() {
    while (this.held) await this.held;
    this.held = new Promise((resolve) => (this.release = resolve));
  }
  unlock() {
    const release = this.release;
    this.held = null;
    this.release = null;
    release?.();
  }
}

const identifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

class WriterDriver implements Driver {
  private readonly mutex = new ConnectionMutex();
  private thread: WriterThread | null = null;
  private connection: WriterConnection | null = null;
  constructor(private readonly start: () => WriterThread) {}
  /** The thread starts with the first statement (Kysely inits its driver then): one never used never starts. */
  async init() {
    this.thread = this.start();
    this.connection = new WriterConnection(this.thread);
  }
  async acquireConnection() {
    await this.mutex.lock();
    return this.connection!;
  }
  async beginTransaction(connection: DatabaseConnection) {
    (connection as WriterConnection).aheadFailure = null;
    await connection.executeQuery(CompiledQuery.raw('begin'));
    (connection as WriterConnection).inTransaction = true;
  }
  async commitTransaction(connection: DatabaseConnection) {
    // Still in the transaction until the commit answered: a failed commit is rolled back next.
    await connection.executeQuery(CompiledQuery.raw('commit'));
    (connection as WriterConnection).inTransaction = false;
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    (connection as WriterConnection).inTransaction = false;
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } finally {
      (connection as WriterConnection).aheadFailure = null;
    }
  }
  async savepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${identifier(name)}`));
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${identifier(name)}`));
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`release ${identifier(name)}`));
  }
  async releaseConnection() {
    this.mutex.unlock();
  }
  /** Closes after the caller holding the connection (a transaction in flight) let it go, `CLOSE_MS` at most. */
  async destroy() {
    if (!this.thread) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.mutex.lock(), new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_MS)))]);
    clearTimeout(timer);
    await this.thread.close();
    // Whoever still waits for the connection gets it, and a refusal (`WRITER_CLOSED_CODE`), not a wait for ever.
    this.mutex.unlock();
  }
}

/** A Kysely of the SQLite file at `path` whose statements run on a writer's thread of their own. */
export function sqliteWriter(path: string, pragmas: string[]): Kysely<AppDatabase> {
  return threadKysely(() => new WriterDriver(() => createWriterThread(path, pragmas)));
}
