import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { preparedStatements } from './sqlite-statements';

/**
 * One thread of the index's SQLite reads (sqlite-reads.ts): a read-only connection of its own that runs
 * the statements the request thread compiled, one at a time, and posts their rows back. Its statements
 * hold this thread, never the one that answers requests; a statement past its bound ends with the thread.
 */
export type ReadJob = { id: number; sql: string; parameters: unknown[] };
export type ReadAnswer = { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string } };

export type ReadStartFailure = { failed: { message: string; code?: string } };

const { path } = workerData as { path: string };
let db: Database.Database | null = null;
try {
  db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // A small page cache: the OS keeps the file's pages, and every thread's cache is resident memory of its
  // own (a thread's memory is the dashboard's: see sqlite-reads.ts).
  db.pragma('cache_size = -16384');
} catch (error) {
  // Said to the pool in words (a thread's uncaught error reaches it without its message), then the end.
  const e = error as { message?: string; code?: string };
  const failure: ReadStartFailure = {
    failed: {
      message: `The index file cannot be read (${path}): ${String(e.message ?? error)}`,
      ...(e.code ? { code: e.code } : {}),
    },
  };
  parentPort!.postMessage(failure);
}

const statement = preparedStatements(() => db!);

// The pool ends a thread that could not open its file (the message above); one that could serves.
if (db)
  parentPort!.on('message', ({ id, sql, parameters }: ReadJob) => {
    let answer: ReadAnswer;
    try {
      const s = statement(sql);
      if (!s.reader) throw Object.assign(new Error('The reads connection only reads'), { code: 'SQLITE_READONLY' });
      answer = { id, rows: s.all(...(parameters as unknown[])) };
    } catch (error) {
      const e = error as { message?: string; code?: string };
      answer = { id, error: { message: String(e.message ?? error), ...(e.code ? { code: e.code } : {}) } };
    }
    parentPort!.postMessage(answer);
  });
// Open and listening: the pool sends statements from now on.
if (db) parentPort!.postMessage('ready');
