import 'server-only';
import Database from 'better-sqlite3';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { backgroundThread } from '../threads/serve';
import { postgresConfig, type DatabaseTarget } from '../database/connect';

/**
 * The index export's reader, in a worker thread: the query on a read-only
 * connection of its own, SQLite or PostgreSQL (one snapshot: the count, then the rows), rows handed
 * a chunk per credit to the opener (index-export-opener.ts), which opens each
 * row's contact and writes the chunk's CSV lines, which the request thread only
 * passes on: the rows' work off the thread that answers people. Terminating the workers ends the read at once.
 */
export type ExportJob = {
  target: DatabaseTarget;
  count: { sql: string; parameters: unknown[] };
  rows: { sql: string; parameters: unknown[] };
  rowsPerChunk: number;
  /** The opener's end of the channel the rows go down. */
  port: MessagePort;
};
/** Rows as arrays, in `columns` order (cheaper to hand between threads than objects). */
export type RawChunk = { type: 'raw'; columns: string[]; rows: unknown[][]; done: boolean };
export type WorkerMessage =
  | { type: 'count'; count: number }
  /** A chunk's CSV lines, UTF-8 (its buffer transferred, not copied), and how many rows they hold. */
  | { type: 'csv'; bytes: Uint8Array; rows: number; done: boolean }
  | { type: 'error'; message: string };

const job = workerData as ExportJob;
backgroundThread();
const post = (message: WorkerMessage) => parentPort!.postMessage(message);

/** Hands out the rows a chunk per message from the opener, until `next` says there are no more. */
function serve(columns: () => string[], next: (n: number) => Promise<unknown[][]> | unknown[][], close: () => void) {
  let done = false;
  let busy: Promise<void> = Promise.resolve();
  job.port.on('message', () => {
    busy = busy.then(async () => {
      if (done) return;
      try {
        const chunk = await next(job.rowsPerChunk);
        done = chunk.length < job.rowsPerChunk;
        if (done) close();
        job.port.postMessage({ type: 'raw', columns: columns(), rows: chunk, done } satisfies RawChunk);
      } catch (error) {
        done = true;
        post({ type: 'error', message: String(error) });
      }
    });
  });
}

function fromSqlite(path: string) {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // Rows are looked up at random across the file: a bigger cache is not faster (1 MB to 64 MB measured
  // within 15 %, the smallest the fastest), only larger in memory.
  db.pragma('cache_size = -2048');
  db.exec('BEGIN');
  const counted = db.prepare(job.count.sql).get(...job.count.parameters) as { n: number };
  post({ type: 'count', count: Number(counted.n) });
  const statement = db.prepare(job.rows.sql).raw(true);
  const columns = statement.columns().map((c) => c.name);
  const rows = statement.iterate(...job.rows.parameters) as IterableIterator<unknown[]>;
  serve(
    () => columns,
    (n) => {
      const chunk: unknown[][] = [];
      while (chunk.length < n) {
        const next = rows.next();
        if (next.done) break;
        chunk.push(next.value);
      }
      return chunk;
    },
    () => db.close(),
  );
}

/** PostgreSQL: one connection, one read-only snapshot (the count, then the rows), rows through a cursor. */
async function fromPostgres(target: Extract<DatabaseTarget, { kind: 'postgres' }>) {
  // A download may pause (a slow client, backpressure) far longer than the pool allows a transaction to idle.
  const client = new pg.Client({
    ...postgresConfig(target),
    options: '-c idle_in_transaction_session_timeout=900000',
  });
  client.on('error', () => {});
  await client.connect();
  await client.query('begin isolation level repeatable read read only');
  const counted = await client.query<{ n: number }>(job.count.sql, job.count.parameters);
  post({ type: 'count', count: Number(counted.rows[0]!.n) });
  const cursor = client.query(new Cursor<Record<string, unknown>>(job.rows.sql, job.rows.parameters));
  let columns: string[] = [];
  serve(
    () => columns,
    async (n) => {
      const rows = await cursor.read(n);
      if (rows.length && !columns.length) columns = Object.keys(rows[0]!);
      return rows.map((row) => columns.map((c) => row[c]));
    },
    () => void cursor.close().then(() => client.end()),
  );
}

const fail = (error: unknown) => post({ type: 'error', message: String(error) });
try {
  if (job.target.kind === 'sqlite') fromSqlite(job.target.path);
  else fromPostgres(job.target).catch(fail);
} catch (error) {
  fail(error);
}
