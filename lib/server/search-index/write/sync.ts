import 'server-only';
import type { SyncState } from './store-lease';
import { createRun, type SyncDeps, type SyncSnapshot } from './sync-state';
import { oneStep, STOPPED_WAIT_MS } from './sync-step';

/**
 * The index's sync as a state machine with a clock you can fake. One `step()`
 * does at most one upstream request and returns how long to wait before the
 * next; the runner (service.ts) sleeps that long, a test just calls `step()`
 * again with the clock moved. States and transitions:
 *
 *   no lease ──(lease taken)──▶ polling? ──▶ scanning ──(pages past the end)──▶ retrying missed pages
 *      ▲                          │ every POLL_S: page 1, then the last page          │
 *      └──(lease lost)────────────┘                                                    ▼
 *                              scan complete: rows not seen since it began are gone; a new scan starts
 *
 * A scan starts no sooner than POLL_S after the previous one started, so a
 * small account is not read over and over; a large one is scanned back to back.
 *
 * Failures: 429 waits out Retry-After; the key rejected (upstream_auth) stops
 * everything with state `error` and retries every minute; anything else backs
 * off exponentially (1 s … 60 s) and a page that fails 3 times is set aside and
 * retried at the end of the scan. A scan whose set-aside pages never answered
 * completes without hiding anything, so nothing is lost to a fault.
 *
 * Its parts, each a file over the sync's state (sync-state.ts `SyncRun`): the step (sync-step.ts), the
 * lease (sync-lease.ts), the head poll (sync-poll.ts), the scan (sync-scan.ts) and its completion
 * (sync-complete.ts), reading ahead (sync-ahead.ts) and failures (sync-failure.ts).
 */
export type { ListPage, SyncDeps, SyncSnapshot } from './sync-state';
export { PAGE_LIMIT } from './sync-state';
export { LEASE_TTL_MS } from './sync-lease';

/** Failures in a row after which the index says `error` (it keeps trying). */
const ERROR_AFTER = 3;

export function createSync(deps: SyncDeps) {
  const run = createRun(deps);
  /** The step under way, if any (a hand-over waits for it). */
  let inFlight: Promise<number> | null = null;

  return {
    /**
     * Does at most one upstream request; returns the milliseconds to wait before the next step. After
     * `stop()` it does nothing (and takes no lease).
     */
    async step(): Promise<number> {
      if (run.stopped) return STOPPED_WAIT_MS;
      const step = oneStep(run);
      inFlight = step;
      try {
        return await step;
      } finally {
        if (inFlight === step) inFlight = null;
      }
    },

    snapshot(): SyncSnapshot {
      const { failures, lastErrorCode, blockedUntil } = run.fault;
      return { leader: run.lease.leader, failures, lastErrorCode, blockedUntil, lastRead: run.lastRead };
    },

    /**
     * Gives the lease up (a clean shutdown): no step starts after it, and the one under way finishes first
     * (released before it ended, its write could land after another replica took the lease and moved on);
     * its upstream request is aborted, so that is a write's time, not a request's: a deploy's process ends
     * soon after its signal.
     */
    async stop(): Promise<void> {
      run.stopped = true;
      run.halt.abort();
      await inFlight?.catch(() => {});
      if (run.lease.leader) await deps.store.release(deps.owner).catch(() => {});
      run.lease.leader = false;
    },
  };
}

export type IndexSync = ReturnType<typeof createSync>;

/** Whether a sync's failures amount to the index being in error (it keeps trying either way). */
export function isErrorState(state: Pick<SyncState, 'error_code'>, failures: number): boolean {
  if (!state.error_code) return false;
  return state.error_code === 'upstream_auth' || state.error_code === 'forbidden' || failures >= ERROR_AFTER;
}
