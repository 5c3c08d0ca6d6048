import 'server-only';
import type { Clock } from '../clock';
import { REOPEN_MS } from '../database/database';
import type { Supervisor } from './service-supervisor';

/**
 * The index's background work on the service's clock: the loop that opens the index, checks its file and
 * steps the sync (each step says how long to wait), and the token backfills of an older index on a timer
 * of its own, never the sync's (whose waits are its pace upstream): 50 ms of slices of ~6 ms
 * (store-maintenance.ts), then 50 ms for everything else, until done. A store error waits the reopen interval.
 */
const BACKFILL_MS = 50;
/** Off: asked again no sooner than a second, no later than a minute. */
const OFF_MIN_WAIT_MS = 1_000;
/**
 * A rescan's page while people use the dashboard waits at least this long: a page of 100 holds the request
 * thread ~5 ms (SQLite, 1,000,000 rows), and at the sandbox's 50 pages a second that was a quarter of the
 * thread the people's pages queued behind. The first scan (the index is not whole yet) and the polls (new
 * collections) keep their pace; a rescan only refreshes what the index answers already.
 */
export const GIVE_WAY_MS = 250;

export function createRunner({
  supervisor,
  clock,
  usersActive = () => false,
}: {
  supervisor: Supervisor;
  clock: Clock;
  /** Whether people are using the dashboard now (the runtime: a request or page in the last second). */
  usersActive?: () => boolean;
}) {
  let stopped = false;
  let cancelLoop: (() => void) | null = null;
  let backfilling = false;
  /** The loop's turn in progress: a hand-over waits for it, so no step re-takes the lease afterwards. */
  let turn: Promise<void> | null = null;

  function backfillPairs(): void {
    if (backfilling) return;
    backfilling = true;
    const tick = async () => {
      const current = supervisor.current();
      // A replica that lost the lease stops too (the new leader backfills): one writer, never N.
      if (stopped || !current || current.store.tokensReady || !current.sync.snapshot().leader) {
        backfilling = false;
        return;
      }
      let wait = BACKFILL_MS;
      try {
        await current.store.backfillTokens(BACKFILL_MS);
      } catch (error) {
        await supervisor.fault(error);
        wait = REOPEN_MS;
      }
      clock.after(wait, () => void tick());
    };
    void tick();
  }

  async function once(): Promise<number> {
    let wait = REOPEN_MS;
    try {
      await supervisor.ensureOpen();
      await supervisor.checkHealth();
      const running = supervisor.current();
      if (running) {
        wait = await running.sync.step();
        if (running.sync.snapshot().lastRead === 'rescan' && usersActive()) wait = Math.max(wait, GIVE_WAY_MS);
      }
      // Only the leader writes the backfills: every replica backfilling the one shared index did it N times over.
      if (running && running.sync.snapshot().leader && !running.store.tokensReady) backfillPairs();
      // The others learn when the leader has finished (each turn: a few key reads, until then).
      else if (running && !running.store.tokensReady) await running.store.refreshBackfills();
    } catch (error) {
      await supervisor.fault(error);
      wait = 1_000;
    }
    // Off: back when the fault's retry interval is up (10 s for a database that did not answer).
    if (!supervisor.current())
      wait = Math.min(REOPEN_MS, Math.max(OFF_MIN_WAIT_MS, supervisor.retryAt() - clock.now()));
    return Math.max(0, wait);
  }

  function loop(): void {
    if (stopped) return;
    turn = once().then((wait) => {
      turn = null;
      if (!stopped) cancelLoop = clock.after(wait, loop);
    });
  }

  return {
    start: loop,
    /** Stops the loop and the backfill, and waits for the turn in flight to end. */
    async stop(): Promise<void> {
      stopped = true;
      cancelLoop?.();
      await turn;
    },
  };
}
