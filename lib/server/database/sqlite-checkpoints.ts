import 'server-only';
import { Worker } from 'node:worker_threads';
import type { CheckpointReport } from './sqlite-checkpoint-worker';
import { startClient } from '../threads/client';
import { sibling } from '../threads/start';

/**
 * The WAL's checkpoints off the writer's thread. SQLite copies the WAL back into the database file when a
 * commit leaves it past `wal_autocheckpoint` pages, inside that commit, on the thread that committed: the
 * sync's writes (~100 MB every few minutes at 1,000,000 rows: on the event loop, before the writer had a
 * thread of its own, the soak saw it held up to 925 ms; on the writer's thread, every write waits as long).
 * A thread of its own checkpoints passively every `everyMs` instead, beside the
 * writer; the writer's own checkpoint stays as a fallback (`AUTOCHECKPOINT_PAGES`, connect.ts), which then finds
 * little left to copy: the thread is at most `everyMs` behind. When the WAL is wholly copied and no reader still
 * uses it, the writer's next transaction starts it again from its beginning, so it stays small.
 */
export const AUTOCHECKPOINT_PAGES = 25_000;
const EVERY_MS = 500;

export type CheckpointStats = { frames: number };

export function checkpointThread(
  path: string,
  { everyMs = EVERY_MS, onFailure = () => {} }: { everyMs?: number; onFailure?: (why: string) => void } = {},
) {
  const stats: CheckpointStats = { frames: 0 };
  let closing = false;
  let failed = false;
  /** The thread is gone: the writer's own checkpoint (still on at AUTOCHECKPOINT_PAGES) does it all again. */
  const fail = (why: string) => {
    if (closing || failed) return;
    failed = true;
    onFailure(why);
  };
  const client = startClient<never, never>({
    name: 'the checkpoint thread',
    bundled: (options) => new Worker(new URL('./sqlite-checkpoint-worker.ts', import.meta.url), { ...options }),
    source: sibling(import.meta.url, 'sqlite-checkpoint-worker.ts'),
    workerData: { path, everyMs },
    onDown: ({ reason, error }) => fail(reason === 'stopped' ? 'the checkpoint thread stopped' : error.message),
  });
  // Never what keeps a process alive (it is sent no requests: the client leaves it unreferenced).
  client.worker.on('message', (report: CheckpointReport | object) => {
    if ('checkpointed' in report) stats.frames += report.checkpointed.frames;
  });
  return {
    /** What the thread copied so far (for the operator's metrics and tests). */
    stats: (): CheckpointStats & { running: boolean } => ({ ...stats, running: !failed && !closing }),
    async close(): Promise<void> {
      closing = true;
      await client.end(new Error('the checkpoint thread is closed'));
    },
  };
}
export type CheckpointThread = ReturnType<typeof checkpointThread>;
