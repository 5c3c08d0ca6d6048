import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { preparedStatements } from './sqlite-statements';
import { lowerThreadPriority } from './thread-priority';

/**
 * The thread of the index's SQLite writer (sqlite-writer.ts): the process's one read-write connection, which
 * runs the statements the request thread compiled, in the order they were sent, and posts each answer back.
 * A write's B-tree pages, its commit and the WAL it fills hold this thread, never the one that answers
 * requests; a lock another process holds is waited for here too (busy_timeout), not on the event loop.
 */
export type WriteJob =
  | {
      id: number;
      sql: string;
      parameters: unknown[];
      /**
       * Sent ahead (`sendAhead`, inside a transaction): the request thread did not wait for its answer. If
       * it fails, every statement after it but a rollback fails with its error (the commit too), so the
       * transaction can only be rolled back: nothing after a failed statement is kept.
       */
      ahead?: true;
    }
  | { id: number; close: true };
export type WriteAnswer =
  | { id: number; rows: unknown[] }
  | { id: number; changes: number; lastInsertRowid: number | bigint }
  | { id: number; closed: true }
  | { id: number; error: { message: string; code?: string } };
export type WriteStartFailure = { failed: { message: string; code?: string } };

const { path, pragmas } = workerData as { path: string; pragmas: string[] };
/**
 * Behind the request thread and the reads' thread for the CPU (nice 10), as the preparing thread and the
 * export's: a first sync's writes (~220 s of this thread's CPU for 1,000,000 records on two busy cores) take
 * what requests leave. Side by side on two cores (bench/README, 2026-11-29): `/api/health` during a first sync
 * p50 / p95 / p99 18.3 / 89.0 / 137.3 → 10.3 / 59.0 / 112.9 ms with both threads lowered, the sync 3.5 % longer.
 */
lowerThreadPriority();
let db: Database.Database | null = null;
try {
  mkdirSync(dirname(path), { recursive: true });
  db = new Database(path);
  for (const pragma of pragmas) db.pragma(pragma);
} catch (error) {
  // Said to the writer in words (a thread's uncaught error reaches it without its code), then the end.
  const e = error as { message?: string; code?: string };
  db?.close();
  db = null;
  const failure: WriteStartFailure = {
    failed: { message: `The index file cannot be opened (${path}): ${String(e.message ?? error)}`, code: e.code },
  };
  parentPort!.postMessage(failure);
}

const statement = preparedStatements(() => db!);
/** The error of a statement sent ahead that failed in the transaction under way (cleared by its rollback). */
let broken: { message: string; code?: string } | null = null;
const isRollback = (sql: string) => /^\s*rollback\s*$/i.test(sql);

if (db)
  parentPort!.on('message', (job: WriteJob) => {
    let answer: WriteAnswer;
    if ('close' in job) {
      // Closed here, by its own thread: a connection left open would keep its locks for the process's life.
      db!.close();
      parentPort!.postMessage({ id: job.id, closed: true } satisfies WriteAnswer);
      return;
    }
    if (broken && !isRollback(job.sql)) {
      parentPort!.postMessage({ id: job.id, error: broken } satisfies WriteAnswer);
      return;
    }
    if (broken) broken = null;
    // A transaction SQLite already rolled back itself (an I/O error, a full disk): its rollback has nothing
    // left to do, and answering "no transaction is active" would hide the error that ended it.
    if (isRollback(job.sql) && !db!.inTransaction) {
      parentPort!.postMessage({ id: job.id, changes: 0, lastInsertRowid: 0 } satisfies WriteAnswer);
      return;
    }
    try {
      const s = statement(job.sql);
      if (s.reader) answer = { id: job.id, rows: s.all(...job.parameters) };
      else {
        const { changes, lastInsertRowid } = s.run(...job.parameters);
        answer = { id: job.id, changes, lastInsertRowid };
      }
    } catch (error) {
      const e = error as { message?: string; code?: string };
      answer = { id: job.id, error: { message: String(e.message ?? error), ...(e.code ? { code: e.code } : {}) } };
      // (Even if SQLite ended the transaction itself: what follows must not run outside it.)
      if (job.ahead) broken = answer.error;
    }
    parentPort!.postMessage(answer);
  });
if (db) parentPort!.postMessage('ready');
