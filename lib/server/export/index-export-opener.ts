import 'server-only';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { backgroundThread } from '../threads/serve';
import { blindKeys } from '../search-index/shared/blind';
import type { ExportRow } from '../search-index/read';
import type { RawChunk, WorkerMessage } from './index-export-worker';
import { csvRows, type CsvOptions } from './csv';
import { fromIndexRow } from './index-rows';

/**
 * The index export's second stage, in a worker thread: rows from the reader
 * (index-export-worker.ts), each one's contact opened and the chunk written as
 * CSV lines, handed to the request thread as bytes a chunk per credit (the
 * buffer transferred, not copied): the request thread only passes them on, so
 * a whole-account export costs the pages people wait on next to nothing. Two
 * chunks are asked of the reader ahead, so reading and writing overlap.
 */
export type OpenerJob = {
  secret: string;
  accountKey: string;
  contacts: boolean;
  /** The file's `as_of` and its columns and cells (csv.ts). */
  asOf: string;
  csv: CsvOptions;
  /** The reader's end of the channel the rows come up. */
  port: MessagePort;
};

const job = workerData as OpenerJob;
backgroundThread();
const post = (message: WorkerMessage) => parentPort!.postMessage(message);
const keys = blindKeys(job.secret);
const encoder = new TextEncoder();
const read: RawChunk[] = [];
let credits = 0;
let ended = false;

function pump() {
  while (credits > 0 && read.length && !ended) {
    const chunk = read.shift()!;
    credits -= 1;
    try {
      const records = chunk.rows.map((values) => {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < chunk.columns.length; i++) row[chunk.columns[i]!] = values[i];
        return fromIndexRow(row as ExportRow, keys, job.accountKey, job.contacts);
      });
      const bytes = encoder.encode(records.length ? csvRows(records, job.asOf, job.csv) : '');
      parentPort!.postMessage({ type: 'csv', bytes, rows: records.length, done: chunk.done } satisfies WorkerMessage, [
        bytes.buffer,
      ]);
      if (chunk.done) ended = true;
      else job.port.postMessage('more');
    } catch (error) {
      ended = true;
      post({ type: 'error', message: String(error) });
    }
  }
}

job.port.on('message', (chunk: RawChunk) => {
  read.push(chunk);
  pump();
});
parentPort!.on('message', () => {
  credits += 1;
  pump();
});
job.port.postMessage('more');
job.port.postMessage('more');
