import 'server-only';
import { dropAhead } from './sync-ahead';
import type { SyncRun } from './sync-state';

/**
 * The lease that lets one process of several sync an account. A leader renews its lease every
 * `LEASE_RENEW_MS` (and before writing what a slow request brought back); the others ask as often. A leader
 * that died is replaced once its lease lapses, `LEASE_TTL_MS` after its last renewal, at the others' next
 * ask; one that cleanly stops (`stop()` releases it), at their next ask.
 */
export const LEASE_TTL_MS = 20_000;
export const LEASE_RENEW_MS = 5_000;

/** Takes or renews the lease when due (`force`: now, as before writing what a slow request returned). */
export async function ensureLease(run: SyncRun, force = false): Promise<boolean> {
  const { deps, lease } = run;
  const now = deps.now();
  if (lease.leader && !force && now - lease.renewedAt < LEASE_RENEW_MS) return true;
  const held = await deps.store.lease(deps.owner, LEASE_TTL_MS);
  // Pages read ahead by a leader that no longer is one are stale by the time it leads again.
  if (!held) dropAhead(run.ahead);
  if (held !== lease.leader)
    deps.log?.info(
      { owner: deps.owner, leader: held },
      held ? 'index sync: lease taken' : 'index sync: lease held elsewhere',
    );
  lease.leader = held;
  lease.renewedAt = now;
  return held;
}

/**
 * After a request, before its page is written: a request that outlived the lease (a stalled upstream, a
 * paused process) must not write a checkpoint over the new leader's. Its page is dropped; the new leader
 * reads it again.
 */
export async function stillLeader(run: SyncRun): Promise<boolean> {
  if (run.deps.now() - run.lease.renewedAt < LEASE_RENEW_MS) return true;
  // (What was read ahead went with the lease: `ensureLease`.)
  if (await ensureLease(run, true)) return true;
  run.poll.stage = null;
  return false;
}
