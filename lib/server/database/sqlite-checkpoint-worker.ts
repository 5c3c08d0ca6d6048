import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { announceStart } from '../threads/serve';

/**
 * The index's WAL checkpoints, on a thread of their own (sqlite-checkpoints.ts): every `everyMs` a passive
 * checkpoint copies what the writer appended to the WAL into the database file, beside the writer, never
 * waiting for it or a reader. It posts what it copied when it copied anything.
 */
export type CheckpointReport = { checkpointed: { frames: number } };

const { path, everyMs } = workerData as { path: string; everyMs: number };
let db: Database.Database | null = null;
announceStart(() => {
  db = new Database(path, { fileMustExist: true });
  // It writes pages the WAL already holds: the file's durability is the writer's (synchronous = OFF there too).
  db.pragma('synchronous = OFF');
});

let backfilled = 0;
if (db) {
  const checkpoint = (db as Database.Database).prepare('pragma wal_checkpoint(PASSIVE)');
  setInterval(() => {
    try {
      const { checkpointed } = checkpoint.get() as { busy: number; log: number; checkpointed: number };
      // `checkpointed` counts the WAL's frames copied so far, this time or before (0 after the WAL restarts).
      const frames = checkpointed >= backfilled ? checkpointed - backfilled : checkpointed;
      backfilled = checkpointed;
      if (frames > 0) {
        const report: CheckpointReport = { checkpointed: { frames } };
        parentPort!.postMessage(report);
      }
    } catch (error) {
      // A busy file (another process checkpointing) passes; the next turn tries again.
      const e = error as { code?: string };
      if (e.code !== 'SQLITE_BUSY' && e.code !== 'SQLITE_LOCKED') throw error;
    }
  }, everyMs);
}
