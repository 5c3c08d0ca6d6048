import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Runs the calling worker thread at a lower scheduling priority (nice 10), so on a busy machine the request
 * thread gets the CPU first and background work (an export, a first scan's preparing) never slows the pages
 * users wait on; on an idle one it still takes every free cycle. Linux names a thread by its own id, which
 * `/proc/thread-self` gives; elsewhere this does nothing. No `server-only`: it touches no key or secret, and
 * the SQLite threads started from sources (without the react-server condition) load it too.
 */
export function lowerThreadPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    // Never above the process's own: one started at nice 15 (with the right to raise it) keeps 15.
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) setPriority(tid, Math.max(getPriority(tid), 10));
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}
