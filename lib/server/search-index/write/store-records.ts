import 'server-only';
import type { Collection } from '@/lib/api/schemas';
import type { PrepareThread } from './prepare-thread';
import { recordsContext } from './records-context';
import { prepare } from './records-prepare';
import { removeUnseen } from './records-remove';
import { buildTrees } from './records-trees';
import { SETTLE_AT_TOKENS, settleTokens } from './records-tokens';
import { upsert } from './records-upsert';
import type { StoreContext } from './store-context';

/**
 * The index's records: what the upstream showed, written as narrow rows (filters, sorts, counts), details
 * (a page of results), blind tokens (search) and a sealed contact, with the roll-ups counting each change
 * once; and the removal of what a completed scan did not see. Its jobs are files of their own, each a
 * function over the records' context (records-context.ts): preparing (records-prepare.ts), writing
 * (records-upsert.ts, a slice at a time: records-slice.ts), the staged tokens (records-tokens.ts), the
 * amount trees (records-trees.ts) and removing (records-remove.ts).
 */
export type IndexRecords = {
  /**
   * Merges the account's staged tokens into `contact_tokens`, in token order, slice by slice; returns how
   * many. Whatever staged them (this process, or a leader before it that stopped mid-scan).
   */
  settleTokens(): Promise<number>;
  /**
   * Builds the amount trees a first scan dropped, one write each; returns how many it built. A first
   * scan's end calls it, and a sync's first step that will not stage (`treesChecked`, sync-scan.ts), so what a
   * first scan left midway (a stopped leader's, resumed paced; another account's) is built then.
   */
  buildTrees(): Promise<number>;
  /** Records the store's preparing thread has prepared (none without one). */
  preparedOnThread(): number;
  /**
   * Prepares records about to be written (their seal, tokens and snapshot: about half of what writing a new
   * record costs the request thread): a first scan prepares the page it read ahead while the writer's
   * thread writes the page before, so the two overlap. On the store's preparing thread when it has one
   * (the runtime's), resolved when the page is prepared; else here, a few at a time between other work.
   * `upsert` waits for a page the thread is preparing, and prepares whatever was not.
   */
  prepare(records: Collection[]): Promise<void>;
  /**
   * Inserts or refreshes records as the upstream showed them at `seenAt`. `bulk` (an unpaced sync)
   * writes larger slices: fewer commits, each blocking the event loop longer. `stage` (a bulk first
   * scan): the tokens of records new to the index are staged and merged every few tens of thousands
   * (`settleTokens`; the scan's end merges the rest). `upstreamCount` (the count of the list page they came
   * from) is written in the same transaction as the first of their rows (records-upsert.ts).
   */
  upsert(
    records: Collection[],
    seenAt: string,
    options?: { bulk?: boolean; stage?: boolean; upstreamCount?: number },
  ): Promise<void>;
  /** Removes rows no scan, poll or live read has seen since `before` (the start of a completed scan). */
  removeUnseen(before: string): Promise<number>;
};

export function createRecords(
  store: StoreContext,
  /** Tokens staged before a merge (`SETTLE_AT_TOKENS`; a test's few). */
  settleAtTokens = SETTLE_AT_TOKENS,
  /** Where `prepare` prepares records (a thread of its own: the runtime's, prepare-thread.ts); else here. */
  thread?: PrepareThread,
): IndexRecords {
  const ctx = recordsContext(store, settleAtTokens, thread);
  return {
    settleTokens: () => settleTokens(ctx),
    buildTrees: () => buildTrees(store),
    preparedOnThread: () => thread?.prepared() ?? 0,
    prepare: (records) => prepare(ctx, records),
    upsert: (records, seenAt, options) => upsert(ctx, records, seenAt, options),
    removeUnseen: (before) => removeUnseen(store, before),
  };
}
