import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { workerData } from 'node:worker_threads';
import type { ThreadFailure } from '../threads/protocol';
import { failureOf } from '../threads/protocol';
import { serveRequests } from '../threads/serve';
import { preparedStatements } from './sqlite-statements';

/**
 * The thread of the index's SQLite writer (sqlite-writer.ts): the process's one read-write connection, which
 * runs the statements the request thread compiled, in the order they were sent, and posts each answer back.
 * A write's B-tree pages, its commit and the WAL it fills hold this thread, never the one that answers
 * requests; a lock another process holds is waited for here too (busy_timeout), not on the event loop.
 * Started as background work (nice 10, threads/priority.ts): a first sync's writes take what requests leave
 * (decision record 0007).
 */
export type WriteJob =
  | {
      sql: string;
      parameters: unknown[];
      /**
       * Sent ahead (`sendAhead`, inside a transaction): the request thread did not wait for its answer. If
       * it fails, every statement after it but a rollback fails with its error (the commit too), so the
       * transaction can only be rolled back: nothing after a failed statement is kept.
       */
      ahead?: true;
    }
  | { close: true };
export type WriteAnswer =
  { rows: unknown[] } | { changes: number; lastInsertRowid: number | bigint } | { closed: true };

const { path, pragmas } = workerData as { path: string; pragmas: string[] };

/** The error of a statement sent ahead that failed in the transaction under way (cleared by its rollback). */
let broken: ThreadFailure | null = null;
const isRollback = (sql: string) => /^\s*rollback\s*$/i.test(sql);
const refused = (failure: ThreadFailure) => Object.assign(new Error(failure.message), { code: failure.code });

function open() {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    for (const pragma of pragmas) db.pragma(pragma);
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, statement: preparedStatements(() => db) };
}

function write(job: WriteJob, { db, statement }: ReturnType<typeof open>): WriteAnswer {
  // Closed here, by its own thread: a connection left open would keep its locks for the process's life.
  if ('close' in job) {
    db.close();
    return { closed: true };
  }
  if (broken && !isRollback(job.sql)) throw refused(broken);
  if (broken) broken = null;
  // A transaction SQLite already rolled back itself (an I/O error, a full disk): its rollback has nothing
  // left to do, and answering "no transaction is active" would hide the error that ended it.
  if (isRollback(job.sql) && !db.inTransaction) return { changes: 0, lastInsertRowid: 0 };
  try {
    const s = statement(job.sql);
    if (s.reader) return { rows: s.all(...job.parameters) };
    const { changes, lastInsertRowid } = s.run(...job.parameters);
    return { changes, lastInsertRowid };
  } catch (error) {
    // (Even if SQLite ended the transaction itself: what follows must not run outside it.)
    if (job.ahead) broken = failureOf(error);
    throw error;
  }
}

serveRequests({ opening: `The index file cannot be opened (${path})`, open, handle: write });
