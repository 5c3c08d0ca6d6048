import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import { serveRequests } from '../threads/serve';
import { preparedStatements } from './sqlite-statements';

/**
 * One thread of the index's SQLite reads (sqlite-reads.ts): a read-only connection of its own that runs
 * the statements the request thread compiled, one at a time, and posts their rows back. Its statements
 * hold this thread, never the one that answers requests; a statement past its bound ends with the thread.
 */
export type ReadJob = { sql: string; parameters: unknown[] };

const { path } = workerData as { path: string };

serveRequests({
  opening: `The index file cannot be read (${path})`,
  open: () => {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    // A small page cache: the OS keeps the file's pages, and every thread's cache is resident memory of its
    // own (a thread's memory is the dashboard's: see sqlite-reads.ts).
    db.pragma('cache_size = -16384');
    return preparedStatements(() => db);
  },
  handle: ({ sql, parameters }: ReadJob, statement): unknown[] => {
    const s = statement(sql);
    if (!s.reader) throw Object.assign(new Error('The reads connection only reads'), { code: 'SQLITE_READONLY' });
    return s.all(...parameters);
  },
});
