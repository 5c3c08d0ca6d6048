import 'server-only';
import { storeFault } from '../../database/connect';
import { READ_AHEAD_MIN_RPS } from './sync-ahead';
import { onFailure } from './sync-failure';
import { ensureLease, LEASE_RENEW_MS } from './sync-lease';
import { poll } from './sync-poll';
import { scan } from './sync-scan';
import type { SyncRun } from './sync-state';

/** How often a process without the lease asks for it again. */
const NO_LEASE_RETRY_MS = 5_000;
/** What a stopped sync's step asks its loop to wait: nothing will happen (the loop is ending anyway). */
export const STOPPED_WAIT_MS = 60_000;

/**
 * One step of the sync: waits out a block (renewing the lease meanwhile), takes or renews the lease, then
 * polls when one is due or reads the scan on; returns the milliseconds to wait before the next step.
 */
export async function oneStep(run: SyncRun): Promise<number> {
  const { deps, fault } = run;
  const now = deps.now();
  run.lastRead = null;
  // A leader waiting (Retry-After, a backoff, the next poll) still renews its lease every LEASE_RENEW_MS, so
  // a wait longer than the lease never hands the sync to a replica that knows nothing of the 429 or the
  // backoff.
  if (fault.blockedUntil > now) {
    if (!run.lease.leader) return fault.blockedUntil - now;
    await ensureLease(run);
    return Math.min(fault.blockedUntil - now, LEASE_RENEW_MS);
  }
  if (!(await ensureLease(run))) return NO_LEASE_RETRY_MS;
  const polling = run.poll.stage !== null || now >= run.poll.nextAt;
  if (!polling && now < run.scan.nextAt)
    return Math.min(Math.min(run.scan.nextAt, run.poll.nextAt) - now, LEASE_RENEW_MS);
  let pages = 1;
  try {
    pages = polling ? await poll(run).then(() => 1) : await scan(run);
  } catch (error) {
    // The store's own faults (a damaged or full file) are the service's to handle, not the upstream's.
    if (storeFault(error)) throw error;
    // Handed over mid-request: the read was aborted on purpose, nothing to count or record.
    if (run.stopped) return STOPPED_WAIT_MS;
    return onFailure(run, error, polling);
  }
  if (fault.failures || fault.lastErrorCode) {
    fault.failures = 0;
    fault.lastErrorCode = null;
    await deps.store.saveState({ error_code: null, error_at: null });
  }
  return paced(run, now, pages);
}

/**
 * Pages written together wait as long as each alone would have: the pace holds on average. Unpaced (the
 * pages read ahead while the step wrote), the step's own time (from `startedAt`) counts toward its wait, so
 * a bulk first scan is not slowed by a pace it already spent writing.
 */
function paced({ deps }: SyncRun, startedAt: number, pages: number): number {
  const wait = Math.ceil(1000 / deps.rps) * Math.max(1, pages);
  return deps.rps >= READ_AHEAD_MIN_RPS ? Math.max(0, wait - (deps.now() - startedAt)) : wait;
}
