import 'server-only';
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { blindKeys } from '../search-index/blind';
import type { ExportRow } from '../search-index/queries';
import type { ExportRecord } from './csv';
import { fromIndexRow } from './index-rows';

/**
 * The index export's reader, in a worker thread: the query on a read-only
 * connection of its own (one snapshot: the count, then the rows), each row's
 * contact opened, records handed back a chunk per credit. The request thread
 * only writes the CSV, so the read never holds up other requests, and the two
 * halves run on two cores. Terminating the worker ends the read at once.
 */
export type ExportJob = {
  path: string;
  secret: string;
  accountKey: string;
  count: { sql: string; parameters: unknown[] };
  rows: { sql: string; parameters: unknown[] };
  contacts: boolean;
  rowsPerChunk: number;
};
export type WorkerMessage =
  | { type: 'count'; count: number }
  | { type: 'rows'; records: ExportRecord[]; done: boolean }
  | { type: 'error'; message: string };

const job = workerData as ExportJob;
const port = parentPort!;
const post = (message: WorkerMessage) => port.postMessage(message);

try {
  const db = new Database(job.path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -16384');
  db.exec('BEGIN');
  const keys = blindKeys(job.secret);
  const counted = db.prepare(job.count.sql).get(...job.count.parameters) as { n: number };
  post({ type: 'count', count: Number(counted.n) });
  const rows = db.prepare(job.rows.sql).iterate(...job.rows.parameters) as IterableIterator<ExportRow>;
  let done = false;
  port.on('message', () => {
    if (done) return;
    try {
      const records: ExportRecord[] = [];
      while (records.length < job.rowsPerChunk) {
        const next = rows.next();
        if (next.done) {
          done = true;
          break;
        }
        records.push(fromIndexRow(next.value, keys, job.accountKey, job.contacts));
      }
      if (done) db.close();
      post({ type: 'rows', records, done });
    } catch (error) {
      done = true;
      post({ type: 'error', message: String(error) });
    }
  });
} catch (error) {
  post({ type: 'error', message: String(error) });
}
