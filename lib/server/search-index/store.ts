import 'server-only';
import type { Connection, DatabaseTarget } from '../database/connect';
import { migrate, openMigrated } from '../database/migrate';
import type { IndexReads } from './read/context';
import type { BlindKeys } from './shared/blind';
import type { IndexWrites } from './write/index-writes';
import { prepareThread } from './write/prepare-thread';
import { storeContext } from './write/store-context';
import { createSyncRows } from './write/store-lease';
import { createMaintenance, markBackfills, type IndexMaintenance } from './write/store-maintenance';
import { markOpened, openAccount, openSecret, recountRollups, type Opened } from './write/store-open';
import { createRecords } from './write/store-records';

/**
 * The index's store: one account's rows in the application's database (SQLite, or PostgreSQL shared by
 * replicas), through the same Kysely queries. Opening it checks what the rows were written with: a secret
 * that does not match empties the index's tables (never the audit log or the drift report), so it is
 * rebuilt instead of answering with tokens nobody can match; roll-ups of an older version are recounted;
 * an index written before a kind of token (name pairs, the spoken forms) is marked for its backfill. Its jobs are files of their own:
 * opening (store-open.ts), records (store-records.ts), the sync's rows and lease (store-lease.ts), upkeep
 * (store-maintenance.ts). What a request may ask of it is `IndexReads` (read/context.ts), what the sync may
 * do `IndexWrites` (write/index-writes.ts); the rest is the service's: the backfills, opening and closing.
 */
export type { SyncState } from './write/store-lease';
export type IndexDb = Connection['db'];

export type IndexStore = IndexReads &
  IndexWrites &
  Pick<IndexMaintenance, 'tokensReady' | 'backfillTokens' | 'refreshBackfills' | 'openedCount' | 'statusFigures'> & {
    db: IndexDb;
    /** What happened at open: `rebuilt` when the secret changed or the file could not be migrated. */
    opened: Opened;
    /** Whether the rows are still written with this store's secret (another replica may have rebuilt them). */
    sameSecret(): Promise<boolean>;
    /** Closes the connection when the store opened it itself (`target`); a borrowed one stays open. */
    close(): Promise<void>;
  };

type Where =
  /** The application's open database (the runtime's): borrowed, left open by `close()`. */
  | { connection: Connection; setAside?: boolean }
  /** A database of the store's own (tests, scripts): connected and migrated here, closed with the store. */
  | { target: DatabaseTarget | Connection };

export async function openIndexStore(
  options: Where & {
    keys: BlindKeys;
    /** The account's non-reversible key (blind.ts `accountKey`). */
    account: string;
    /**
     * Names an older version gave the same account (blind.ts `addressedAccountKey`): an index kept under one
     * is carried over to `account` at open, rows and all, instead of being synced again.
     */
    formerAccounts?: string[];
    onRebuild?: (why: 'secret' | 'schema') => void;
    /** Called when the account's rows were found under a former name and kept. */
    onCarriedOver?: () => void;
    /** The database's clock, faked (tests: replicas' own clocks skewed against it). */
    clock?: () => number;
    /** False only in `npm run bench:history`: no history entries are written (what they cost, side by side). */
    keepHistory?: boolean;
    /** A first scan's staged tokens merged once this many wait (tests: a few; store-records.ts). */
    settleAtTokens?: number;
    /**
     * The secret `keys` were made from: a first scan's records are then prepared on a thread of its own
     * (prepare-thread.ts, which makes the same keys from it), not on the caller's. Unset: on the caller's.
     */
    secret?: string;
  },
): Promise<IndexStore> {
  const { keys, account: accountKey } = options;
  const own = 'target' in options;
  const { connection, setAside } = !own
    ? { connection: options.connection, setAside: options.setAside ?? false }
    : 'db' in options.target
      ? await migrate(options.target.db).then(() => ({ connection: options.target as Connection, setAside: false }))
      : await openMigrated(options.target);
  const { db } = connection;

  try {
    const opened = await openSecret(db, keys, setAside, options.onRebuild);
    const { id: account, seal_key: sealKey } = await openAccount(
      db,
      accountKey,
      options.formerAccounts,
      options.onCarriedOver,
    );
    const context = storeContext(connection, account, sealKey ?? accountKey, keys, options.clock, options.keepHistory);
    await markOpened(context);
    await recountRollups(context);

    const maintenance = createMaintenance(context, await markBackfills(db, account));
    const thread = options.secret
      ? prepareThread({ secret: options.secret, account, accountKey: context.accountKey })
      : undefined;
    return {
      ...createRecords(context, options.settleAtTokens, thread),
      ...createSyncRows(context),
      get namePairsReady() {
        return maintenance.namePairsReady;
      },
      get tokensReady() {
        return maintenance.tokensReady;
      },
      backfillTokens: maintenance.backfillTokens,
      refreshBackfills: maintenance.refreshBackfills,
      indexedCount: maintenance.indexedCount,
      openedCount: maintenance.openedCount,
      statusFigures: maintenance.statusFigures,
      analyze: maintenance.analyze,
      pruneAccounts: maintenance.pruneAccounts,
      pruneHistory: maintenance.pruneHistory,
      scanCompleted: maintenance.scanCompleted,
      db,
      reads: connection.reads ?? db,
      dialect: connection.dialect,
      account,
      accountKey: sealKey ?? accountKey,
      keys,
      opened,
      async sameSecret() {
        const now = await db.selectFrom('index_meta').select('value').where('key', '=', 'key_check').executeTakeFirst();
        return now?.value === keys.checkValue;
      },
      async close() {
        await thread?.close();
        if (own) await db.destroy();
      },
    };
  } catch (error) {
    if (own) await db.destroy().catch(() => {});
    throw error;
  }
}
