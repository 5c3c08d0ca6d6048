import 'server-only';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery, DatabaseConnection, Driver, Kysely, QueryResult } from 'kysely';
import { startClient, type ThreadClient } from '../threads/client';
import { sibling } from '../threads/start';
import type { AppDatabase } from './schema';
import type { ReadJob } from './sqlite-read-worker';
import { threadKysely } from './thread-kysely';

/**
 * The index's SQLite reads off the request thread: a Kysely dialect whose statements run on a small pool of
 * worker threads (one by default), each with a read-only connection of its own (WAL: readers never wait for the writer). The
 * request thread builds the query and reads the answer; the statement itself (a broad search: tens to
 * hundreds of milliseconds at 1,000,000 rows) holds a worker, never the event loop, so `/api/health`, the
 * pages and the sync's lease renewal go on beside it. A statement past `timeoutMs` ends its thread (SQLite
 * cannot be interrupted from another thread through better-sqlite3) and fails with `INDEX_READ_TIMEOUT`; a
 * fresh thread takes its place.
 */
export const READ_TIMEOUT_CODE = 'INDEX_READ_TIMEOUT';
/** A read sent to, or waiting in, a pool closed on purpose (a reopen, the process's end): connect.ts `closedUnder`. */
export const READS_CLOSED_CODE = 'INDEX_READS_CLOSED';
const readsClosed = () => Object.assign(new Error('The index reads are closed'), { code: READS_CLOSED_CODE });

/**
 * A thread's JavaScript heap: it holds one statement's rows at a time (a page, a count), so a small one
 * keeps the dashboard's memory flat; a read that outgrows it ends the thread (the read fails, a new thread
 * takes its place), never the process.
 */
const resourceLimits = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };

type Pending = {
  job: ReadJob;
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
  queuedAt: number;
  /** Sent first in line (`firstInLine`): ahead of every read queued without it. */
  first: boolean;
};

/** What the pool's queue holds now, and how long its reads waited for a thread since it opened (metrics). */
export type ReadStats = { waiting: number; started: number; waitedMs: number };
type Thread = { client: ThreadClient<ReadJob, unknown[]>; busy: Pending | null; timer: NodeJS.Timeout | null };

/**
 * One thread by default: beside the request thread it takes the second core of a small server, and each
 * thread is resident memory of its own (a second one put the dashboard's peak under load past its memory
 * budget). A second broad search waits for the first (2 s at most).
 */
export function createReadPool(path: string, { threads = 1, timeoutMs = 2_000 } = {}) {
  const queue: Pending[] = [];
  const pool: Thread[] = [];
  let closed = false;
  const stats = { started: 0, waitedMs: 0 };

  function spawn(): Thread {
    const thread = { busy: null, timer: null } as unknown as Thread;
    thread.client = startClient<ReadJob, unknown[]>({
      name: 'the index reads thread',
      bundled: (options) => new Worker(new URL('./sqlite-read-worker.ts', import.meta.url), { ...options }),
      source: sibling(import.meta.url, 'sqlite-read-worker.ts'),
      workerData: { path },
      resourceLimits,
      onReady: pump,
      onDown: ({ error, ready }) => replace(thread, error, ready),
    });
    return thread;
  }

  function settle(thread: Thread) {
    if (thread.timer) clearTimeout(thread.timer);
    thread.timer = null;
    thread.busy = null;
  }

  /**
   * A thread that died or was ended: its statement failed with it (the client rejected it), a new thread
   * takes its place. One that died before it was ready (its file or its module could not be opened) fails
   * every statement waiting, with why, and is replaced at the next read: waiting on threads that fail the
   * same way hung a page for good, and spawning them again at once was a loop.
   */
  function replace(thread: Thread, error: Error, wasReady: boolean) {
    const index = pool.indexOf(thread);
    if (index < 0) return;
    settle(thread);
    pool.splice(index, 1);
    if (!wasReady) {
      // Threads that did start serve what waits; with none, it fails now.
      if (!pool.some((t) => t.client.ready)) for (const waiting of queue.splice(0)) waiting.reject(error);
      pump();
      return;
    }
    if (!closed) pool.push(spawn());
    pump();
  }

  function pump() {
    // Work waiting or under way keeps the process alive until it is answered (a script's last read too).
    for (const thread of pool) {
      if (queue.length || thread.busy) thread.client.worker.ref();
      else thread.client.worker.unref();
    }
    for (const thread of pool) {
      if (!thread.client.ready || thread.busy || !queue.length) continue;
      const pending = queue.shift()!;
      stats.started++;
      stats.waitedMs += performance.now() - pending.queuedAt;
      thread.busy = pending;
      thread.timer = setTimeout(() => {
        if (thread.busy !== pending) return;
        const error = Object.assign(new Error(`An index read ran past ${timeoutMs} ms`), { code: READ_TIMEOUT_CODE });
        void thread.client.end(error);
      }, timeoutMs);
      thread.client.worker.ref();
      thread.client.request(pending.job).then(
        (rows) => {
          settle(thread);
          pending.resolve(rows);
          pump();
        },
        (error: Error) => {
          if (thread.busy === pending) settle(thread);
          pending.reject(error);
          pump();
        },
      );
    }
  }

  for (let i = 0; i < threads; i++) pool.push(spawn());

  return {
    /**
     * Runs one statement on the next free thread. `first`: ahead of every read waiting without it (after those
     * waiting with it), though never before the statements already running.
     */
    run(sql: string, parameters: readonly unknown[], first = false): Promise<unknown[]> {
      if (closed) return Promise.reject(readsClosed());
      // Threads that failed to start are tried again now.
      while (pool.length < threads) pool.push(spawn());
      return new Promise((resolve, reject) => {
        const pending = {
          job: { sql, parameters: [...parameters] },
          resolve,
          reject,
          queuedAt: performance.now(),
          first,
        };
        if (first) {
          const behind = queue.findIndex((p) => !p.first);
          queue.splice(behind < 0 ? queue.length : behind, 0, pending);
        } else queue.push(pending);
        pump();
      });
    },
    stats: (): ReadStats => ({ waiting: queue.length, ...stats }),
    async close(): Promise<void> {
      closed = true;
      for (const p of queue.splice(0)) p.reject(readsClosed());
      await Promise.all(pool.splice(0).map((t) => t.client.end(readsClosed())));
    },
  };
}
export type ReadPool = ReturnType<typeof createReadPool>;

class PoolConnection implements DatabaseConnection {
  constructor(
    private readonly pool: ReadPool,
    private readonly first = false,
  ) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return { rows: (await this.pool.run(compiled.sql, compiled.parameters, this.first)) as R[] };
  }
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The index reads do not stream');
  }
}

class PoolDriver implements Driver {
  private readonly connection: PoolConnection;
  /**
   * `first`: the pool's first-in-line Kysely (`firstInLine`), which leaves the pool to its owner to close and,
   * destroyed, is forgotten (`forget`): the next `firstInLine` makes another.
   */
  constructor(
    private readonly pool: ReadPool,
    private readonly first = false,
    private readonly forget = () => {},
  ) {
    this.connection = new PoolConnection(pool, first);
  }
  async init() {}
  async acquireConnection() {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error('The index reads take no transactions');
  }
  async commitTransaction() {}
  async rollbackTransaction() {}
  async releaseConnection() {}
  async destroy() {
    if (this.first) this.forget();
    else await this.pool.close();
  }
}

/** The read pool behind each Kysely `sqliteReads` made, for its figures (`readStats`). */
const pools = new WeakMap<Kysely<AppDatabase>, ReadPool>();

/** How a `sqliteReads` Kysely's queue stands (null for any other Kysely: PostgreSQL's pool, a test's own). */
export const readStats = (db: Kysely<AppDatabase>): ReadStats | null => pools.get(db)?.stats() ?? null;

function poolKysely(pool: ReadPool, first: boolean, forget?: () => void): Kysely<AppDatabase> {
  return threadKysely(() => new PoolDriver(pool, first, forget));
}

/** A Kysely of the index's SQLite file whose statements run on the read pool (read-only). */
export function sqliteReads(path: string, options?: { threads?: number; timeoutMs?: number }): Kysely<AppDatabase> {
  const pool = createReadPool(path, options);
  const db = poolKysely(pool, false);
  pools.set(db, pool);
  return db;
}

const firstLines = new WeakMap<Kysely<AppDatabase>, Kysely<AppDatabase>>();

/**
 * The same reads, sent first in line: the application's own small reads on a request's way (the navigation's
 * pinned views, the list's default view) go ahead of the searches waiting for the pool's one
 * thread, and wait for the statement running (tens of milliseconds as a rule; at its 2 s bound the thread is
 * replaced and the next starts) and the first-in-line reads before them, not for the searches queued. Any other
 * Kysely (PostgreSQL's reads pool, whose connections are several) is answered as it is. Closing it closes
 * nothing: the pool is `reads`' own.
 */
export function firstInLine(reads: Kysely<AppDatabase>): Kysely<AppDatabase> {
  const pool = pools.get(reads);
  if (!pool) return reads;
  let first = firstLines.get(reads);
  if (!first) firstLines.set(reads, (first = poolKysely(pool, true, () => firstLines.delete(reads))));
  return first;
}
