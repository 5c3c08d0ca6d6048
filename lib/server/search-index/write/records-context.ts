import 'server-only';
import type { Collection } from '@/lib/api/schemas';
import type { Prepared } from './prepare';
import type { PrepareThread } from './prepare-thread';
import type { StoreContext } from './store-context';

/**
 * What the records' writes (store-records.ts) share beyond the store's context: the records prepared ahead of
 * their write, and the count of a first scan's staged tokens. One a store: every function of the records'
 * files takes it first, so one process's counts and prepared records are the same whichever function reads
 * them.
 */
export type RecordsContext = {
  store: StoreContext;
  /** Tokens staged before a merge (`SETTLE_AT_TOKENS`; a test's few). */
  settleAtTokens: number;
  /** Where `prepare` prepares records (a thread of its own: the runtime's, prepare-thread.ts); else here. */
  thread?: PrepareThread;
  /** Records prepared (`prepareRecord`), by the very object the upstream's page held: dropped with the page. */
  ready: WeakMap<Collection, Prepared>;
  /** Records the thread is preparing: their page's answer, which `upsert` waits for rather than prepare again. */
  preparing: WeakMap<Collection, Promise<void>>;
  /** Tokens this process staged since its last merge (`settleTokens`). */
  staged: number;
  /**
   * Whether this process has looked for staged tokens it did not count (a leader before it, or itself before
   * a restart, stopped mid-scan): merged at its first staged write, so the backlog stays bounded. That write
   * also drops the amount trees the scan builds at its end (`deferTrees`).
   */
  leftoversMet: boolean;
};

/** A store's records context: nothing prepared, nothing staged, no leftovers looked for yet. */
export const recordsContext = (
  store: StoreContext,
  settleAtTokens: number,
  thread?: PrepareThread,
): RecordsContext => ({
  store,
  settleAtTokens,
  thread,
  ready: new WeakMap(),
  preparing: new WeakMap(),
  staged: 0,
  leftoversMet: false,
});
