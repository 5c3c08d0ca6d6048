import 'server-only';
import type { ErrorCode } from '@/lib/api/error-codes';
import type { Collection } from '@/lib/api/schemas';
import type { IndexWrites } from './index-writes';
import type { SyncState } from './store-lease';

/**
 * What one sync (sync.ts `createSync`) knows between its steps: what it was given (`deps`) and the few
 * parts of its state machine, each an object of its own that the step's functions (sync-*.ts) read and
 * move on. One `SyncRun` per sync; nothing here is shared between syncs.
 */

/** One upstream list page, as `SyncDeps.readPage` returns it. */
export type ListPage = { data: Collection[]; meta: { count: number; next: number | null } };

export type SyncDeps = {
  store: IndexWrites;
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

export const PAGE_LIMIT = 100;

/** A scan page read ahead: its request, and its page once it came (or that it failed). */
export type AheadEntry = { result: Promise<ListPage>; page?: ListPage; failed?: true };

/** Scan pages read ahead (sync-ahead.ts), one request at a time, in order. */
export type ReadAhead = {
  /** By number: a step takes the pages already here without waiting. */
  pages: Map<number, AheadEntry>;
  /** The next page the read-ahead requests (0: none under way), and the last it may. */
  next: number;
  until: number;
  /** Whether it is requesting. */
  chaining: boolean;
  /** Bumped when what was read ahead is dropped (a lease lost, a page read afresh): a chain under way stops. */
  round: number;
};

export type SyncRun = {
  deps: SyncDeps;
  /** Aborted by `stop()`: the upstream request under way ends at once instead of at its timeout. */
  halt: AbortController;
  /** Whether this process holds the lease, and when it last took or renewed it (its own clock). */
  lease: { leader: boolean; renewedAt: number };
  /** The head poll under way (page 1, then the last page), when the next is due, and its failures in a row. */
  poll: { stage: 'head' | 'tail' | null; nextAt: number; tailPage: number; attempts: number };
  scan: {
    /** Whether this sync has made sure the trees a first scan may put off are there (sync-scan.ts). */
    treesChecked: boolean;
    /** Failures in a row of the scan page asked for (set aside after a few: sync-failure.ts). */
    pageAttempts: number;
    /** Rounds of retrying the set-aside pages that ended with one failing again. */
    missedRounds: number;
    /** When the next scan may start (no sooner than `pollMs` after the previous one started). */
    nextAt: number;
    /** Whether this process has said the index is ready (once, with the dashboard's address). */
    announced: boolean;
  };
  /** Failures in a row, the last one's code, and until when no request is made (a 429, a backoff). */
  fault: { failures: number; lastErrorCode: ErrorCode | null; blockedUntil: number };
  ahead: ReadAhead;
  lastRead: SyncSnapshot['lastRead'];
  /** Set by `stop()`: no step starts after it, and an aborted request is no failure. */
  stopped: boolean;
};

export function createRun(deps: SyncDeps): SyncRun {
  return {
    deps,
    halt: new AbortController(),
    lease: { leader: false, renewedAt: -Infinity },
    poll: { stage: null, nextAt: -Infinity, tailPage: 1, attempts: 0 },
    scan: { treesChecked: false, pageAttempts: 0, missedRounds: 0, nextAt: -Infinity, announced: false },
    fault: { failures: 0, lastErrorCode: null, blockedUntil: -Infinity },
    ahead: { pages: new Map(), next: 0, until: 0, chaining: false, round: 0 },
    lastRead: null,
    stopped: false,
  };
}

/**
 * When a page was seen, a scan began or ended: on the database's clock, which every replica shares (the
 * process's own, `deps.now`, paces and times this process alone).
 */
export const stamp = async (run: SyncRun) => new Date(await run.deps.store.now()).toISOString();

/** Every page of this scan has been read once (page 1 always is read, even of an empty list). */
export const pastEnd = (state: SyncState) =>
  state.scan_page > 1 &&
  state.upstream_count !== null &&
  state.scan_page > Math.ceil(state.upstream_count / PAGE_LIMIT);
