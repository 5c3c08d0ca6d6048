import 'server-only';
import type { SyncState } from './store-lease';
import { hasNext, READ_AHEAD_MIN_RPS, readAhead, readScanPage, takeAhead } from './sync-ahead';
import { completeScan } from './sync-complete';
import { stillLeader } from './sync-lease';
import { PAGE_LIMIT, pastEnd, stamp, type SyncRun } from './sync-state';

/**
 * A full scan, a step at a time: every page in order from its checkpoint (`scan_page`), then the pages set
 * aside because they kept failing (sync-failure.ts), retried for up to `MISSED_ROUNDS` rounds, then its
 * completion (sync-complete.ts).
 */
const MISSED_ROUNDS = 3;

/** A step of the scan; returns how many pages it read (the step's wait is paced by them). */
export async function scan(run: SyncRun): Promise<number> {
  const state = await beginStep(run);
  const missed = JSON.parse(state.scan_missed) as number[];
  if (pastEnd(state)) return retryMissed(run, state, missed);
  return readOn(run, state, missed);
}

/** The scan's checkpoint, a new scan started when none is under way. */
async function beginStep(run: SyncRun): Promise<SyncState> {
  const { deps, scan } = run;
  const { store } = deps;
  let state = await store.state();
  run.lastRead = state.scans_completed > 0 ? 'rescan' : 'first';
  // Trees a bulk first scan put off and never built (it stopped midway: this account's, resumed paced or
  // by a replica that does not stage, or another account's) are built by the first step that will not
  // stage its writes (store-records.ts `deferTrees`; a staging one builds them when another account shares
  // the file, and at its end).
  if (!scan.treesChecked && !(deps.rps >= READ_AHEAD_MIN_RPS && run.lastRead === 'first')) {
    await store.buildTrees();
    scan.treesChecked = true;
  }
  if (!state.scan_started_at) {
    await store.saveState({ scan_page: 1, scan_started_at: await stamp(run), scan_missed: '[]' });
    state = await store.state();
  }
  return state;
}

/** Every page read once: retries the first page set aside, then completes (at once when none is left). */
async function retryMissed(run: SyncRun, state: SyncState, missed: number[]): Promise<number> {
  const { deps } = run;
  if (!missed.length || run.scan.missedRounds >= MISSED_ROUNDS) return completeScan(run, state, missed).then(() => 0);
  const page = await deps.readPage(missed[0]!, PAGE_LIMIT, run.halt.signal);
  if (!(await stillLeader(run))) return 1;
  await deps.store.upsert(page.data, await stamp(run), { upstreamCount: page.meta.count });
  const rest = missed.slice(1);
  await deps.store.saveState({ scan_missed: JSON.stringify(rest) });
  if (!rest.length) await completeScan(run, { ...state, scan_missed: '[]' }, []);
  return 1;
}

/** Reads the checkpoint's page (with what came in ahead of it), writes it and moves the checkpoint on. */
async function readOn(run: SyncRun, state: SyncState, missed: number[]): Promise<number> {
  const { deps } = run;
  const first = await readScanPage(run, state.scan_page);
  if (!(await stillLeader(run))) return 1;
  // Unpaced, a first scan is bound by its writes: the pages read ahead meanwhile are written with this
  // one (fewer, larger transactions: sync-ahead.ts `FIRST_SCAN_PAGES`), and their records' tokens are staged and
  // merged in order.
  const bulk = deps.rps >= READ_AHEAD_MIN_RPS;
  const firstScan = run.lastRead === 'first';
  const pages = bulk && firstScan ? takeAhead(run.ahead, state.scan_page, first) : [first];
  const last = pages.at(-1)!;
  if (hasNext(last)) readAhead(run, state.scan_page + pages.length, firstScan);
  // The upstream's count with the rows (the last page read is the newest count), in one transaction.
  await deps.store.upsert(
    pages.flatMap((page) => page.data),
    await stamp(run),
    { bulk, stage: bulk && firstScan, upstreamCount: last.meta.count },
  );
  run.scan.pageAttempts = 0;
  await deps.store.saveState({ scan_page: state.scan_page + pages.length });
  // The last page (or past it, when the list shrank): complete now, or retry set-aside pages first.
  if (!hasNext(last) && !missed.length) await completeScan(run, state, []);
  return pages.length;
}
