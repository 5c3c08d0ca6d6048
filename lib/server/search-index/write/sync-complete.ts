import 'server-only';
import type { SyncState } from './store-lease';
import { stillLeader } from './sync-lease';
import { stamp, type SyncRun } from './sync-state';

/**
 * The end of a full scan: its upkeep (the staged tokens merged, the trees it put off built, what it did not
 * see removed, old history and accounts pruned), its checkpoint reset for the next scan, and when that one
 * may start. `missed`: pages that never answered; then nothing is removed and the scan does not count as
 * whole, so nothing is lost to a fault.
 */
export async function completeScan(run: SyncRun, state: SyncState, missed: number[]): Promise<void> {
  const { deps, scan } = run;
  const { store } = deps;
  // Hiding what the scan did not see is for the leader whose scan it is.
  if (!(await stillLeader(run))) return;
  const gone = await upkeep(run, state, missed);
  await store.saveState({
    scan_page: 1,
    scan_started_at: null,
    scan_missed: '[]',
    scans_completed: state.scans_completed + 1,
    last_full_scan_at: await stamp(run),
  });
  scan.missedRounds = 0;
  // Scans repeat, but a small account is not rescanned more often than it is polled.
  // (How long the scan took is measured on the clock its start was read from: the database's.)
  scan.nextAt = deps.now() + Math.max(0, deps.pollMs - ((await store.now()) - Date.parse(state.scan_started_at!)));
  await announce(run, state, gone);
}

/** What a completed scan leaves the index; returns how many rows it removed. */
async function upkeep(run: SyncRun, state: SyncState, missed: number[]): Promise<number> {
  const { deps } = run;
  const { store } = deps;
  // A first scan's tokens still staged are merged: from here every record is found by its contact.
  await store.settleTokens();
  // The trees a first scan put off (its sorts and filters by amount), built in one pass each.
  await store.buildTrees();
  const gone = missed.length ? 0 : await store.removeUnseen(state.scan_started_at!);
  await store.analyze();
  // Pages that never answered wrote none of their rows' links: only a whole scan completes them.
  if (!missed.length) await store.scanCompleted(state.scan_started_at!);
  if (deps.historyRetentionDays !== undefined) await store.pruneHistory(deps.historyRetentionDays);
  if (deps.accountRetentionDays !== undefined) {
    const pruned = await store.pruneAccounts(deps.accountRetentionDays);
    if (pruned)
      deps.log?.info(
        { accounts: pruned },
        'index sync: pruned accounts no replica used for long, or that no longer exist',
      );
  }
  if (missed.length)
    deps.log?.warn({ pages: missed }, 'index sync: scan completed with pages that never answered; nothing hidden');
  return gone;
}

/**
 * Says a scan completed. A small account completes one every `pollMs`: a person at a terminal hears of the
 * first (and that the index is ready), at debug of the rest.
 */
async function announce(run: SyncRun, state: SyncState, gone: number): Promise<void> {
  const { deps, scan } = run;
  (scan.announced ? deps.log?.debug : deps.log?.info)?.call(
    deps.log,
    { gone, scans: state.scans_completed + 1 },
    'index sync: full scan complete',
  );
  if (!scan.announced) {
    scan.announced = true;
    deps.log?.info(
      { indexed: await deps.store.indexedCount() },
      `index: ready, search and filters cover every collection${deps.url ? ` · ${deps.url}` : ''}`,
    );
  }
}
