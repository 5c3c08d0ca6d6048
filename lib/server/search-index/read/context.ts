import 'server-only';
import type { Connection } from '../../database/connect';
import type { BlindKeys } from '../shared/blind';
import { TUNING, type Tuning } from './tuning';

/**
 * All a read of the index works with, and nothing of the sync's: where it reads (PostgreSQL's reads pool,
 * each statement bounded in time; else the one database), the dialect, the account's id and key, the blind
 * keys and the bounds searches are read with. Every function of read/ takes it first.
 */
export type ReadContext = {
  reads: Connection['db'];
  dialect: Connection['dialect'];
  /** The account's id in this store (rows carry it). */
  account: number;
  /** The account's non-reversible key its contacts are sealed under (AES-GCM's additional data). */
  accountKey: string;
  keys: BlindKeys;
  tuning: Tuning;
  /** Whether every record has its name-pair tokens (a backfill may still be writing them: read each time). */
  readonly namePairsReady: boolean;
  /** Rows visible to searches (the whole-account roll-ups' count). */
  indexedCount(): Promise<number>;
  /**
   * The account's key in the application's own tables (accounts/app-key.ts), where its tags are: the `tag=`
   * filter reads them beside the index's rows. Empty when not given (a test's store): no row holds a tag.
   */
  tagAccount: string;
};

/** What a request may ask of the index's store to read it: the store's narrow read face. */
export type IndexReads = Omit<ReadContext, 'tuning' | 'tagAccount'>;

/** The read context of a store, with the bounds tests set low; `namePairsReady` follows the store's. */
export function readContext(store: IndexReads, tuning: Partial<Tuning> = {}, tagAccount = ''): ReadContext {
  return {
    reads: store.reads,
    dialect: store.dialect,
    account: store.account,
    accountKey: store.accountKey,
    keys: store.keys,
    tuning: { ...TUNING, ...tuning },
    get namePairsReady() {
      return store.namePairsReady;
    },
    indexedCount: () => store.indexedCount(),
    tagAccount,
  };
}
