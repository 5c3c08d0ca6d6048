import 'server-only';
import Database from 'better-sqlite3';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { lowerThreadPriority } from './background-thread';
import type { ExportRecord } from './csv';

/**
 * The index export's reader, in a worker thread: the query on a read-only
 * connection of its own (one snapshot: the count, then the rows), rows handed
 * a chunk per credit to the opener (index-export-opener.ts), which opens each
 * row's contact for the request thread, which writes the CSV: a pipeline of
 * three threads, each with about a third of a row's work. Terminating the workers ends the read at once.
 */
export type ExportJob = {
  path: string;
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
  | { type: 'rows'; records: ExportRecord[]; done: boolean }
  | { type: 'error'; message: string };

const job = workerData as ExportJob;
lowerThreadPriority();
const post = (message: WorkerMessage) => parentPort!.postMessage(message);

try {
  const db = new Database(job.path, { readonly: true, fileMustExist: true });
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
  let done = false;
  job.port.on('message', () => {
    if (done) return;
    try {
      const chunk: unknown[][] = [];
      while (chunk.length < job.rowsPerChunk) {
        const next = rows.next();
        if (next.done) {
          done = true;
          break;
        }
        chunk.push(next.value);
      }
      if (done) db.close();
      job.port.postMessage({ type: 'raw', columns, rows: chunk, done } satisfies RawChunk);
    } catch (error) {
      done = true;
      post({ type: 'error', message: String(error) });
    }
  });
} catch (error) {
  post({ type: 'error', message: String(error) });
}
