import 'server-only';
import type { ErrorCode } from '@/lib/api/error-codes';
import type { Collection } from '@/lib/api/schemas';
import type { IndexStore, SyncState } from '../store';
import { storeFault } from '../../database/connect';

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
 */
export type ListPage = { data: Collection[]; meta: { count: number; next: number | null } };

export type SyncDeps = {
  store: IndexStore;
  /**
   * One upstream list page; throws `{ code, retryAfter? }` (the data layer's AppError) on failure. `cancel`
   * aborts it (a hand-over does not wait for the upstream).
   */
  readPage(page: number, limit: number, cancel?: AbortSignal): Promise<ListPage>;
  now(): number;
  /** Full-scan pace: upstream list requests per second. */
  rps: number;
  /** Milliseconds between head polls. */
  pollMs: number;
  /** A name for this process, for the lease. */
  owner: string;
  /** Other accounts no replica opened for this many days are pruned after a full scan (unset: never). */
  accountRetentionDays?: number;
  /** History first seen more than this many days ago is pruned after a full scan (unset: never). */
  historyRetentionDays?: number;
  log?: { info(o: object, m: string): void; warn(o: object, m: string): void; debug?(o: object, m: string): void };
  /** The dashboard's address, said again once the first full scan is done (the start's lines have scrolled away). */
  url?: string;
};

export const PAGE_LIMIT = 100;
/**
 * A leader renews its lease every 5 s (and before writing what a request brought back); the others ask
 * every 5 s. A leader that died is replaced 20-25 s later; one that cleanly stops, at the others' next ask.
 */
export const LEASE_TTL_MS = 20_000;
const LEASE_RENEW_MS = 5_000;
const NO_LEASE_RETRY_MS = 5_000;
const AUTH_RETRY_MS = 60_000;
const MAX_BACKOFF_MS = 60_000;
const ATTEMPTS_PER_PAGE = 3;
/** At this pace or faster (a bulk sync, the sandbox) the next page is fetched while this one is written. */
const READ_AHEAD_MIN_RPS = 50;
/**
 * Pages an unpaced first scan reads ahead and writes together (1,000 records a transaction). Measured on
 * 300,000 generated records, tokens staged and merged every 400,000: 147.2 s written a page at a time,
 * 111.8 s ten at a time.
 */
const FIRST_SCAN_PAGES = 10;
const MISSED_ROUNDS = 3;
/** Failures in a row after which the index says `error` (it keeps trying). */
const ERROR_AFTER = 3;

type Failure = { code?: ErrorCode; retryAfter?: number };

export type SyncSnapshot = {
  leader: boolean;
  failures: number;
  lastErrorCode: ErrorCode | null;
  blockedUntil: number;
  /**
   * What the last step read: a page of a scan after the first whole one (`rescan`: the index already
   * answers, the page only refreshes it), of the first (`first`), the head or tail (`poll`), or nothing.
   */
  lastRead: 'rescan' | 'first' | 'poll' | null;
};

/** Every page of this scan has been read once (page 1 always is read, even of an empty list). */
const pastEnd = (state: SyncState) =>
  state.scan_page > 1 &&
  state.upstream_count !== null &&
  state.scan_page > Math.ceil(state.upstream_count / PAGE_LIMIT);

export function createSync(deps: SyncDeps) {
  const { store } = deps;
  // When a page was seen, a scan began or ended: on the database's clock, which every replica shares (the
  // process's own, `deps.now`, paces and times this process alone).
  const stamp = async () => new Date(await store.now()).toISOString();
  const pace = () => Math.ceil(1000 / deps.rps);

  let leader = false;
  let leaseRenewedAt = -Infinity;
  let nextPollAt = -Infinity;
  let pollStage: 'head' | 'tail' | null = null;
  /** Whether this sync has made sure the trees a first scan may put off are there (`scan`). */
  let treesChecked = false;
  let tailPage = 1;
  let blockedUntil = -Infinity;
  let failures = 0;
  let lastErrorCode: ErrorCode | null = null;
  let pageAttempts = 0;
  let pollAttempts = 0;
  let missedRounds = 0;
  /** Whether this process has said the index is ready (once, with the dashboard's address). */
  let announced = false;
  let nextScanAt = -Infinity;
  /**
   * Scan pages read ahead, by number: each request's promise, and its page once it came (a step takes the
   * pages already here without waiting). Read one request at a time, in order (`chain`).
   */
  let ahead = new Map<number, { result: Promise<ListPage>; page?: ListPage; failed?: true }>();
  /** The next page the read-ahead requests, the last it may, and whether it is requesting. */
  let chainNext = 0;
  let chainUntil = 0;
  let chaining = false;
  /** Bumped when what was read ahead is dropped (a lease lost, a page read afresh): a chain under way stops. */
  let aheadRound = 0;

  function dropAhead() {
    ahead = new Map();
    aheadRound++;
    chaining = false;
    chainNext = 0;
  }

  /** A scan page: the one read ahead when it is the one wanted, else a fresh request. */
  function read(page: number): Promise<ListPage> {
    const wanted = ahead.get(page)?.result;
    if (wanted) {
      ahead.delete(page);
      return wanted;
    }
    dropAhead();
    return deps.readPage(page, PAGE_LIMIT, halt.signal);
  }

  /** Pages from `chainNext` to `chainUntil`, one request after another, each prepared in a first scan. */
  async function chain(round: number, first: boolean) {
    chaining = true;
    while (round === aheadRound && chainNext <= chainUntil) {
      const page = chainNext++;
      const entry: { result: Promise<ListPage>; page?: ListPage; failed?: true } = {
        result: deps.readPage(page, PAGE_LIMIT, halt.signal),
      };
      ahead.set(page, entry);
      let read: ListPage;
      try {
        read = await entry.result;
      } catch {
        // Its failure is met when the scan asks for the page (a 429's wait, a backoff); nothing after it is
        // read ahead meanwhile.
        entry.failed = true;
        if (round === aheadRound) chainUntil = 0;
        break;
      }
      // Dropped meanwhile (a lease lost, a page read afresh): a newer read-ahead owns the bounds now.
      if (round !== aheadRound) return;
      entry.page = read;
      // Sealed and tokenised (`store.prepare`, on a thread of its own in the runtime) while the writer's
      // thread writes the pages before.
      if (first) void store.prepare(read.data).catch(() => {});
      if (read.meta.next === null || !read.data.length) chainUntil = 0;
    }
    if (round === aheadRound) chaining = false;
  }

  /**
   * Reads ahead from `page`, while the pages before are written: the next page in a rescan (most of its
   * records are as the index has them), up to `FIRST_SCAN_PAGES` in a first one (written together).
   */
  function readAhead(page: number, first: boolean) {
    if (deps.rps < READ_AHEAD_MIN_RPS) return;
    // A page that failed ahead is the scan's to meet first: nothing after it is asked for until then.
    if (ahead.get(page)?.failed) return;
    const until = page + (first ? FIRST_SCAN_PAGES : 1) - 1;
    // The read-ahead under way (or stopped at its bound) goes on from where it is: it holds `page` or is
    // about to request it.
    if (chainNext > 0 && (ahead.has(page) || chainNext === page)) {
      chainUntil = until;
      if (!chaining) void chain(aheadRound, first);
      return;
    }
    dropAhead();
    chainNext = page;
    chainUntil = until;
    void chain(aheadRound, first);
  }

  /** Takes or renews the lease when due (`force`: now, as before writing what a slow request returned). */
  async function ensureLease(force = false): Promise<boolean> {
    const now = deps.now();
    if (leader && !force && now - leaseRenewedAt < LEASE_RENEW_MS) return true;
    const held = await store.lease(deps.owner, LEASE_TTL_MS);
    // Pages read ahead by a leader that no longer is one are stale by the time it leads again.
    if (!held) dropAhead();
    if (held !== leader)
      deps.log?.info(
        { owner: deps.owner, leader: held },
        held ? 'index sync: lease taken' : 'index sync: lease held elsewhere',
      );
    leader = held;
    leaseRenewedAt = now;
    return held;
  }

  /**
   * After a request, before its page is written: a request that outlived the lease (a stalled upstream, a
   * paused process) must not write a checkpoint over the new leader's. Its page is dropped; the new leader
   * reads it again.
   */
  async function stillLeader(): Promise<boolean> {
    if (deps.now() - leaseRenewedAt < LEASE_RENEW_MS) return true;
    // (What was read ahead went with the lease: `ensureLease`.)
    if (await ensureLease(true)) return true;
    pollStage = null;
    return false;
  }

  async function poll(): Promise<void> {
    lastRead = 'poll';
    if (!pollStage) pollStage = 'head';
    if (pollStage === 'head') {
      const page = await deps.readPage(1, PAGE_LIMIT, halt.signal);
      if (!(await stillLeader())) return;
      await store.upsert(page.data, await stamp());
      tailPage = Math.max(1, Math.ceil(page.meta.count / PAGE_LIMIT));
      await store.saveState({ upstream_count: page.meta.count });
      if (tailPage > 1) {
        pollStage = 'tail';
        return;
      }
    } else {
      const page = await deps.readPage(tailPage, PAGE_LIMIT, halt.signal);
      if (!(await stillLeader())) return;
      await store.upsert(page.data, await stamp());
    }
    pollStage = null;
    pollAttempts = 0;
    nextPollAt = deps.now() + deps.pollMs;
    await store.saveState({ last_poll_at: await stamp() });
  }

  async function completeScan(state: SyncState, missed: number[]): Promise<void> {
    // Hiding what the scan did not see is for the leader whose scan it is.
    if (!(await stillLeader())) return;
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
    await store.saveState({
      scan_page: 1,
      scan_started_at: null,
      scan_missed: '[]',
      scans_completed: state.scans_completed + 1,
      last_full_scan_at: await stamp(),
    });
    missedRounds = 0;
    // Scans repeat, but a small account is not rescanned more often than it is polled.
    // (How long the scan took is measured on the clock its start was read from: the database's.)
    nextScanAt = deps.now() + Math.max(0, deps.pollMs - ((await store.now()) - Date.parse(state.scan_started_at!)));
    // Every 15 s on a small account: a person at a terminal hears of the first, at debug of the rest.
    (announced ? deps.log?.debug : deps.log?.info)?.call(
      deps.log,
      { gone, scans: state.scans_completed + 1 },
      'index sync: full scan complete',
    );
    if (!announced) {
      announced = true;
      deps.log?.info(
        { indexed: await store.indexedCount() },
        `index: ready, search and filters cover every collection${deps.url ? ` · ${deps.url}` : ''}`,
      );
    }
  }

  /** A step of the scan; returns how many pages it read (the step's wait is paced by them). */
  async function scan(): Promise<number> {
    let state = await store.state();
    lastRead = state.scans_completed > 0 ? 'rescan' : 'first';
    // Trees a bulk first scan put off and never built (it stopped midway: this account's, resumed paced or
    // by a replica that does not stage, or another account's) are built by the first step that will not
    // stage its writes (store-records.ts `deferTrees`; a staging one builds them when another account shares
    // the file, and at its end).
    if (!treesChecked && !(deps.rps >= READ_AHEAD_MIN_RPS && lastRead === 'first')) {
      await store.buildTrees();
      treesChecked = true;
    }
    if (!state.scan_started_at) {
      await store.saveState({ scan_page: 1, scan_started_at: await stamp(), scan_missed: '[]' });
      state = await store.state();
    }
    const missed = JSON.parse(state.scan_missed) as number[];
    if (pastEnd(state)) {
      // Every page read once: retry what was set aside, then complete.
      if (!missed.length || missedRounds >= MISSED_ROUNDS) return completeScan(state, missed).then(() => 0);
      const page = await deps.readPage(missed[0]!, PAGE_LIMIT, halt.signal);
      if (!(await stillLeader())) return 1;
      await store.upsert(page.data, await stamp());
      const rest = missed.slice(1);
      await store.saveState({ scan_missed: JSON.stringify(rest) });
      if (!rest.length) await completeScan({ ...state, scan_missed: '[]' }, []);
      return 1;
    }
    const first = await read(state.scan_page);
    if (!(await stillLeader())) return 1;
    const more = (page: ListPage) => page.meta.next !== null && page.data.length > 0;
    // Unpaced, a first scan is bound by its writes: the pages read ahead meanwhile are written with this
    // one (fewer, larger transactions), and their records' tokens are staged and merged in order.
    const bulk = deps.rps >= READ_AHEAD_MIN_RPS;
    const firstScan = lastRead === 'first';
    const pages = [first];
    while (bulk && firstScan && pages.length < FIRST_SCAN_PAGES && more(pages.at(-1)!)) {
      const next = ahead.get(state.scan_page + pages.length)?.page;
      if (!next) break;
      ahead.delete(state.scan_page + pages.length);
      pages.push(next);
    }
    const last = pages.at(-1)!;
    if (more(last)) readAhead(state.scan_page + pages.length, firstScan);
    await store.upsert(
      pages.flatMap((page) => page.data),
      await stamp(),
      { bulk, stage: bulk && firstScan },
    );
    pageAttempts = 0;
    await store.saveState({ scan_page: state.scan_page + pages.length, upstream_count: last.meta.count });
    // The last page (or past it, when the list shrank): complete now, or retry set-aside pages first.
    if (!more(last) && !missed.length) await completeScan(state, []);
    return pages.length;
  }

  /** On a failed request: how long to wait, and what the scan does with its page. */
  async function onFailure(error: unknown, polling: boolean): Promise<number> {
    const { code, retryAfter } = (error ?? {}) as Failure;
    const now = deps.now();
    lastErrorCode = code ?? 'upstream_error';
    failures++;
    const errorCode = lastErrorCode;
    await stamp()
      .then((at) => store.saveState({ error_code: errorCode, error_at: at }))
      .catch(() => {});
    if (code === 'rate_limited') {
      const wait = Math.max(1, retryAfter ?? 60) * 1000;
      deps.log?.warn({ retryAfterS: wait / 1000 }, 'index sync: rate limited, waiting');
      blockedUntil = now + wait;
      return wait;
    }
    if (code === 'upstream_auth' || code === 'forbidden') {
      deps.log?.warn({ code }, 'index sync: the upstream refused the key; retrying in a minute');
      blockedUntil = now + AUTH_RETRY_MS;
      return AUTH_RETRY_MS;
    }
    const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(failures - 1, 6));
    deps.log?.warn({ code: lastErrorCode, backoffMs: backoff }, 'index sync: upstream request failed');
    if (polling && ++pollAttempts >= ATTEMPTS_PER_PAGE) {
      // A head that keeps failing must not stall the scan: skip this poll, try at the next.
      pollStage = null;
      pollAttempts = 0;
      nextPollAt = now + deps.pollMs;
    }
    if (!polling) {
      pageAttempts++;
      const state = await store.state();
      if (pastEnd(state)) {
        if (pageAttempts >= ATTEMPTS_PER_PAGE) {
          missedRounds++;
          pageAttempts = 0;
        }
      } else if (pageAttempts >= ATTEMPTS_PER_PAGE) {
        const missed = [...(JSON.parse(state.scan_missed) as number[]), state.scan_page];
        await store.saveState({ scan_page: state.scan_page + 1, scan_missed: JSON.stringify(missed) });
        pageAttempts = 0;
      }
    }
    blockedUntil = now + backoff;
    return backoff;
  }

  let lastRead: SyncSnapshot['lastRead'] = null;

  /** The step under way, if any (a hand-over waits for it), and whether the sync was stopped. */
  let inFlight: Promise<number> | null = null;
  let stopped = false;
  /** Aborted by `stop()`: the upstream request under way ends at once instead of at its timeout. */
  const halt = new AbortController();

  async function oneStep(): Promise<number> {
    const now = deps.now();
    lastRead = null;
    // A leader waiting (Retry-After, a backoff, the next poll) still renews its lease every 5 s, so a wait
    // longer than the lease never hands the sync to a replica that knows nothing of the 429 or the backoff.
    if (blockedUntil > now) {
      if (!leader) return blockedUntil - now;
      await ensureLease();
      return Math.min(blockedUntil - now, LEASE_RENEW_MS);
    }
    if (!(await ensureLease())) return NO_LEASE_RETRY_MS;
    const polling = pollStage !== null || now >= nextPollAt;
    if (!polling && now < nextScanAt) return Math.min(Math.min(nextScanAt, nextPollAt) - now, LEASE_RENEW_MS);
    let pages = 1;
    try {
      pages = polling ? await poll().then(() => 1) : await scan();
    } catch (error) {
      // The store's own faults (a damaged or full file) are the service's to handle, not the upstream's.
      if (storeFault(error)) throw error;
      // Handed over mid-request: the read was aborted on purpose, nothing to count or record.
      if (stopped) return STOPPED_WAIT_MS;
      return onFailure(error, polling);
    }
    if (failures || lastErrorCode) {
      failures = 0;
      lastErrorCode = null;
      await store.saveState({ error_code: null, error_at: null });
    }
    // Pages written together wait as long as each alone would have: the pace holds on average. Unpaced (the
    // pages read ahead while the step wrote), the step's own time counts toward its wait: a first scan's
    // step of ten pages (~250 ms) waited 10 ms more, ~4 % of a first sync.
    const wait = pace() * Math.max(1, pages);
    return deps.rps >= READ_AHEAD_MIN_RPS ? Math.max(0, wait - (deps.now() - now)) : wait;
  }

  return {
    /**
     * Does at most one upstream request; returns the milliseconds to wait before the next step. After
     * `stop()` it does nothing (and takes no lease).
     */
    async step(): Promise<number> {
      if (stopped) return STOPPED_WAIT_MS;
      const step = oneStep();
      inFlight = step;
      try {
        return await step;
      } finally {
        if (inFlight === step) inFlight = null;
      }
    },

    snapshot(): SyncSnapshot {
      return { leader, failures, lastErrorCode, blockedUntil, lastRead };
    },

    /**
     * Gives the lease up (a clean shutdown): no step starts after it, and the one under way finishes first
     * (released before it ended, its write could land after another replica took the lease and moved on);
     * its upstream request is aborted, so that is a write's time, not a request's: a deploy's process ends
     * soon after its signal.
     */
    async stop(): Promise<void> {
      stopped = true;
      halt.abort();
      await inFlight?.catch(() => {});
      if (leader) await store.release(deps.owner).catch(() => {});
      leader = false;
    },
  };
}

export type IndexSync = ReturnType<typeof createSync>;

/** What a stopped sync's step asks its loop to wait: nothing will happen (the loop is ending anyway). */
const STOPPED_WAIT_MS = 60_000;

/** Whether a sync's failures amount to the index being in error (it keeps trying either way). */
export function isErrorState(state: Pick<SyncState, 'error_code'>, failures: number): boolean {
  if (!state.error_code) return false;
  return state.error_code === 'upstream_auth' || state.error_code === 'forbidden' || failures >= ERROR_AFTER;
}
