import 'server-only';
import { PAGE_LIMIT, type AheadEntry, type ListPage, type ReadAhead, type SyncRun } from './sync-state';

/**
 * Reading scan pages ahead while the pages before are written: the next page in a rescan (most of its
 * records are as the index has them), up to `FIRST_SCAN_PAGES` in a first one (written together). Only a
 * sync paced at `READ_AHEAD_MIN_RPS` or faster reads ahead; a slower one asks for each page as it needs it.
 */

/** At this pace or faster (a bulk sync, the sandbox) the next page is fetched while this one is written. */
export const READ_AHEAD_MIN_RPS = 50;
/**
 * Pages an unpaced first scan reads ahead and writes together (1,000 records a transaction): fewer, larger
 * transactions, and a first scan of 300,000 generated records took about a quarter less time than written a
 * page at a time.
 */
export const FIRST_SCAN_PAGES = 10;

/** Forgets what was read ahead; the chain under way, if any, stops at its next page. */
export function dropAhead(ahead: ReadAhead) {
  ahead.pages = new Map();
  ahead.round++;
  ahead.chaining = false;
  ahead.next = 0;
}

/** A scan page: the one read ahead when it is the one wanted, else a fresh request. */
export function readScanPage(run: SyncRun, page: number): Promise<ListPage> {
  const { ahead } = run;
  const wanted = ahead.pages.get(page)?.result;
  if (wanted) {
    ahead.pages.delete(page);
    return wanted;
  }
  dropAhead(ahead);
  return run.deps.readPage(page, PAGE_LIMIT, run.halt.signal);
}

/**
 * `first` and the pages after `page` that came in ahead (taken out of the read-ahead), while each has a
 * next, up to `FIRST_SCAN_PAGES` in all: what a bulk first scan writes in one step.
 */
export function takeAhead(ahead: ReadAhead, page: number, first: ListPage): ListPage[] {
  const pages = [first];
  while (pages.length < FIRST_SCAN_PAGES && hasNext(pages.at(-1)!)) {
    const next = ahead.pages.get(page + pages.length)?.page;
    if (!next) break;
    ahead.pages.delete(page + pages.length);
    pages.push(next);
  }
  return pages;
}

/** Whether the list goes on after this page. */
export const hasNext = (page: ListPage) => page.meta.next !== null && page.data.length > 0;

/** Pages from `ahead.next` to `ahead.until`, one request after another, each prepared in a first scan. */
async function chain(run: SyncRun, round: number, first: boolean) {
  const { ahead, deps } = run;
  ahead.chaining = true;
  while (round === ahead.round && ahead.next <= ahead.until) {
    const page = ahead.next++;
    const entry: AheadEntry = { result: deps.readPage(page, PAGE_LIMIT, run.halt.signal) };
    ahead.pages.set(page, entry);
    let read: ListPage;
    try {
      read = await entry.result;
    } catch {
      // Its failure is met when the scan asks for the page (a 429's wait, a backoff); nothing after it is
      // read ahead meanwhile.
      entry.failed = true;
      if (round === ahead.round) ahead.until = 0;
      break;
    }
    // Dropped meanwhile (a lease lost, a page read afresh): a newer read-ahead owns the bounds now.
    if (round !== ahead.round) return;
    entry.page = read;
    // Sealed and tokenised (`store.prepare`, on a thread of its own in the runtime) while the writer's
    // thread writes the pages before.
    if (first) void deps.store.prepare(read.data).catch(() => {});
    if (read.meta.next === null || !read.data.length) ahead.until = 0;
  }
  if (round === ahead.round) ahead.chaining = false;
}

/** Reads ahead from `page` (`first`: of a first scan, so up to `FIRST_SCAN_PAGES`, else one). */
export function readAhead(run: SyncRun, page: number, first: boolean) {
  const { ahead } = run;
  if (run.deps.rps < READ_AHEAD_MIN_RPS) return;
  // A page that failed ahead is the scan's to meet first: nothing after it is asked for until then.
  if (ahead.pages.get(page)?.failed) return;
  const until = page + (first ? FIRST_SCAN_PAGES : 1) - 1;
  // The read-ahead under way (or stopped at its bound) goes on from where it is: it holds `page` or is
  // about to request it.
  if (ahead.next > 0 && (ahead.pages.has(page) || ahead.next === page)) {
    ahead.until = until;
    if (!ahead.chaining) void chain(run, ahead.round, first);
    return;
  }
  dropAhead(ahead);
  ahead.next = page;
  ahead.until = until;
  void chain(run, ahead.round, first);
}
