import 'server-only';
import { backfillTokens, refreshBackfills, tokensReady, type Backfill } from './maintenance-backfills';
import { pruneAccounts } from './maintenance-accounts';
import { indexedCount, openedCount, statusFigures, type StatusFigures } from './maintenance-counts';
import { analyze, pruneHistory, scanCompleted } from './maintenance-scan';
import type { StoreContext } from './store-context';

export { numbersHeld } from './maintenance-accounts';
export { BACKFILL_KEY_PATTERNS, backfillKey, markBackfills } from './maintenance-backfills';

/**
 * The index's upkeep, run by the leader between the sync's steps: the token backfills of an index written
 * before a kind of token existed (maintenance-backfills.ts), the planner's statistics and the marks of a
 * completed scan (maintenance-scan.ts), the pruning of unused accounts (maintenance-accounts.ts), and the
 * count of rows (maintenance-counts.ts).
 */
export type IndexMaintenance = {
  /**
   * Whether every record has its name-pair tokens (blind.ts `namePairTokens`): true for an index written
   * by this version from the start; an older one gets them from `backfillTokens`, and until then a
   * search of several name words merges the single words' ranges as before.
   */
  readonly namePairsReady: boolean;
  /**
   * Learns the backfills another process finished (the leader writes them; every replica reads by them):
   * without it a replica that is not the leader would search as if pairs were missing until it restarted.
   */
  refreshBackfills(): Promise<void>;
  /** Whether every record has every kind of token this version writes. */
  readonly tokensReady: boolean;
  /**
   * Writes the tokens of kinds records were written without, a slice at a time for up to `budgetMs`,
   * one backfill after the other; true once all have them.
   */
  backfillTokens(budgetMs: number): Promise<boolean>;
  /**
   * Rows visible to searches. Read where the searches read (`reads`): a search and the status line never
   * wait for the sync's transaction in flight on the writer (up to ~100 ms a page at 1,000,000 rows).
   */
  indexedCount(): Promise<number>;
  /** Rows of collections the list does not return, indexed because a user opened them by id (read as above). */
  openedCount(): Promise<number>;
  /**
   * The sync's row with both counts above, in one statement (read as above): what `/api/index/status` says,
   * its "N of M" from one snapshot.
   */
  statusFigures(): Promise<StatusFigures>;
  /**
   * Deletes the rows of every other account no replica has used for `days` (an upstream the dashboard no
   * longer reads, or an account renamed by INDEX_ACCOUNT), and of accounts that no longer exist: rows a
   * replica still on a former INDEX_SECRET wrote under its account after the index was emptied for the new
   * one, until its health check saw the change (no row of `accounts` names them, so nothing else would
   * ever delete them). A table at a time, each in a transaction of its own under that account's write lock.
   * An account is in use while a replica syncs it (`lease` marks it, hourly); one never marked since its
   * time was first kept (migration 0016) starts counting now. Returns the accounts pruned.
   */
  pruneAccounts(days: number): Promise<number>;
  /**
   * A full scan that began at `startedAt` completed: the first one sets the drift report's baseline; contact links are whole when it began after they were
   * kept, and no collection only opened by its id (no scan sees those) still waits for its link.
   */
  scanCompleted(startedAt: string): Promise<void>;
  /** Deletes this account's history first seen more than `days` ago (HISTORY_RETENTION_DAYS). */
  pruneHistory(days: number): Promise<number>;
  /** Refreshes the query planner's statistics (after a full scan: the shape of the data is known). */
  analyze(): Promise<void>;
};

export function createMaintenance(store: StoreContext, backfilled: Set<Backfill>): IndexMaintenance {
  const { db, dialect, account } = store;
  const reads = store.connection.reads ?? db;
  /** The backfills finished: by this process, or learnt from another's cursor (`refreshBackfills`). */
  const done = new Set(backfilled);
  return {
    get namePairsReady() {
      return done.has('name_pairs');
    },
    refreshBackfills: () => refreshBackfills(store, done),
    get tokensReady() {
      return tokensReady(done);
    },
    backfillTokens: (budgetMs) => backfillTokens(store, done, budgetMs),
    indexedCount: () => indexedCount(reads, account),
    openedCount: () => openedCount(reads, dialect, account),
    statusFigures: () => statusFigures(reads, dialect, account),
    pruneAccounts: (days) => pruneAccounts(store, days),
    scanCompleted: (startedAt) => scanCompleted(store, startedAt),
    pruneHistory: (days) => pruneHistory(store, days),
    analyze: () => analyze(store),
  };
}
