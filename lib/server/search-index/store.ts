import 'server-only';
import type { Connection, DatabaseTarget } from '../database/connect';
import type { Kysely, Transaction } from 'kysely';
import type { AppDatabase } from '../database/schema';
import { dialectOf, lockIndexWrites } from '../database/dialect';
import { migrate, openMigrated } from '../database/migrate';
import type { BlindKeys } from './shared/blind';
import { rebuildRollups } from './write/rollups';
import { storeContext } from './write/store-context';
import { createSyncRows } from './write/store-lease';
import { BACKFILL_KEY_PATTERNS, createMaintenance, markBackfills, numbersHeld } from './write/store-maintenance';
import { CONTACTS_DONE, CONTACTS_LINKED, HISTORY_SINCE } from './shared/meta-keys';
import { prepareThread } from './write/prepare-thread';
import { createRecords } from './write/store-records';

/**
 * The index's store: one account's rows in the application's database (SQLite, or PostgreSQL shared by
 * replicas), through the same Kysely queries. Opening it checks what the rows were written with: a secret
 * that does not match empties the index's tables (never the audit log or the drift report), so it is
 * rebuilt instead of answering with tokens nobody can match; roll-ups of an older version are recounted;
 * an index written before a kind of token (name pairs, the spoken forms) is marked for its backfill. Its jobs are files of their own:
 * records (store-records.ts), the sync's rows and lease (store-lease.ts), upkeep (store-maintenance.ts).
 */
export type { SyncState } from './write/store-lease';
export type IndexDb = Connection['db'];

export type IndexStore = ReturnType<typeof createRecords> &
  ReturnType<typeof createSyncRows> &
  Pick<
    ReturnType<typeof createMaintenance>,
    | 'namePairsReady'
    | 'tokensReady'
    | 'backfillTokens'
    | 'refreshBackfills'
    | 'indexedCount'
    | 'openedCount'
    | 'analyze'
    | 'pruneAccounts'
    | 'pruneHistory'
    | 'scanCompleted'
  > & {
    db: IndexDb;
    /** Where searches and lists read: PostgreSQL's reads pool (each statement bounded in time), else `db`. */
    reads: IndexDb;
    dialect: Connection['dialect'];
    /** The account's id in this store (rows carry it). */
    account: number;
    /**
     * The account's non-reversible name its contacts are sealed under (bound to it as AES-GCM's additional
     * data): its key, or the former name of an account carried over from an older version.
     */
    accountKey: string;
    keys: BlindKeys;
    /** What happened at open: `rebuilt` when the secret changed or the file could not be migrated. */
    opened: 'new' | 'existing' | 'rebuilt';
    /** Whether the rows are still written with this store's secret (another replica may have rebuilt them). */
    sameSecret(): Promise<boolean>;
    /** Closes the connection when the store opened it itself (`target`); a borrowed one stays open. */
    close(): Promise<void>;
  };

/** Bumped when what the roll-ups count changes: they are then recounted from the rows at open. */
const ROLLUPS_VERSION = '2';

/** The index's tables, emptied when the secret changes (the audit log and the drift report are not the index's). */
const INDEX_TABLES = [
  'collection_history',
  'rollup_durations',
  'rollups',
  'contact_tokens',
  'contact_tokens_staged',
  'name_words',
  'collection_details',
  'collections',
  'sync_state',
  'sync_lease',
  'accounts',
] as const;

/**
 * Empties the index's tables, in a transaction holding the accounts' lock (0). On PostgreSQL it first waits for
 * every account's writes, in id order (a writer holds its account's lock for its whole transaction:
 * store-context.ts; none asks for lock 0 or another account's). Deleting the rows without them met the rows of
 * a replica writing meanwhile: a deadlock on the name counts, seen once. The rows are deleted, not truncated:
 * a TRUNCATE's lock would queue every replica's reads behind the longest read under way (an export's, minutes)
 * and fail on the 15 s `lock_timeout`; a delete waits for no reader. It costs the name counts' trigger a
 * transition table of every token (spilled to disk at 1,000,000 collections) and leaves the rows to vacuum,
 * once a change of secret, which rebuilds the whole index anyway. SQLite has one writer.
 */
async function emptyIndex(trx: Transaction<AppDatabase>): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    // The numbers the tables' rows carry too, not only the accounts': a replica still on the old secret
    // writes on under its number after that number's account row is gone (an earlier change of secret, or
    // pruned as an orphan), and its rows are deleted here as well (a delete that met its transaction's rows
    // midway could deadlock with it).
    const numbers = await numbersHeld(trx);
    for (const { id } of await trx.selectFrom('accounts').select('id').execute()) numbers.add(Number(id));
    for (const id of [...numbers].sort((a, b) => a - b)) await lockIndexWrites(trx, id);
  }
  for (const table of INDEX_TABLES) await trx.deleteFrom(table).execute();
}

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
    const check = await db.selectFrom('index_meta').select('value').where('key', '=', 'key_check').executeTakeFirst();
    let opened: IndexStore['opened'] = setAside ? 'rebuilt' : check ? 'existing' : 'new';
    if (setAside) options.onRebuild?.('schema');
    if (check && check.value !== keys.checkValue) {
      // Tokens and ciphertext of another secret are useless: start again rather than answer wrong. Checked
      // again under the lock and marked in the same transaction: replicas restarting together with the new
      // secret empty the index once, never one after another's accounts and state were written.
      const emptied = await db.transaction().execute(async (trx) => {
        await lockIndexWrites(trx, 0);
        const now = await trx
          .selectFrom('index_meta')
          .select('value')
          .where('key', '=', 'key_check')
          .executeTakeFirst();
        if (now?.value === keys.checkValue) return false;
        await emptyIndex(trx);
        await trx.updateTable('index_meta').set({ value: keys.checkValue }).where('key', '=', 'key_check').execute();
        for (const pattern of BACKFILL_KEY_PATTERNS)
          await trx.deleteFrom('index_meta').where('key', 'like', pattern).execute();
        return true;
      });
      opened = 'rebuilt';
      if (emptied) options.onRebuild?.('secret');
    }
    await db
      .insertInto('index_meta')
      .values({ key: 'key_check', value: keys.checkValue })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: keys.checkValue }))
      .execute();
    // The account by what identifies it; one kept under a former name is renamed, its rows kept (its sealed
    // contacts stay bound to the name they were sealed under). Under the lock: replicas opening together
    // carry it over once.
    const carried = await db.transaction().execute(async (trx) => {
      await lockIndexWrites(trx, 0);
      const found = await trx.selectFrom('accounts').select('id').where('key', '=', accountKey).executeTakeFirst();
      if (found) return false;
      for (const former of options.formerAccounts ?? []) {
        const old = await trx
          .selectFrom('accounts')
          .select(['id', 'seal_key'])
          .where('key', '=', former)
          .executeTakeFirst();
        if (!old) continue;
        await trx
          .updateTable('accounts')
          .set({ key: accountKey, seal_key: old.seal_key ?? former })
          .where('id', '=', old.id)
          .execute();
        return true;
      }
      await trx
        .insertInto('accounts')
        .values({ key: accountKey, seal_key: null, opened_at: null })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      return false;
    });
    if (carried) options.onCarriedOver?.();
    const { id: account, seal_key: sealKey } = await db
      .selectFrom('accounts')
      .select(['id', 'seal_key'])
      .where('key', '=', accountKey)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('sync_state')
      .values({ account, scan_page: 1, scan_missed: '[]', scans_completed: 0 })
      .onConflict((oc) => oc.column('account').doNothing())
      .execute();
    const context = storeContext(connection, account, sealKey ?? accountKey, keys, options.clock, options.keepHistory);
    // On the database's clock, as the pruning that reads it and the syncing replica's marks (store-lease.ts).
    await db
      .updateTable('accounts')
      .set({ opened_at: new Date(await context.now()).toISOString() })
      .where('id', '=', account)
      .execute();
    // History is kept from now on for an account that had none (a new index, a rebuilt one, an upgrade).
    await db
      .insertInto('index_meta')
      .values({ key: `${HISTORY_SINCE}:${account}`, value: new Date(await context.now()).toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    // Contact pages are whole at once for an account with no rows yet (each row is written with its
    // contact's token); an older index's rows get theirs from the next full scan begun after now.
    const anyRow = await db.selectFrom('collections').select('id').where('account', '=', account).limit(1).execute();
    await db
      .insertInto('index_meta')
      .values({
        key: `${CONTACTS_LINKED}:${account}`,
        value: anyRow.length ? `after:${new Date(await context.now()).toISOString()}` : CONTACTS_DONE,
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    // Rows indexed before roll-ups existed (or under an older version of them) are counted once, from the
    // rows (no rescan needed). Under the write lock, from the check to the mark: no replica's write lands
    // between the count and the replacement, and replicas starting together recount once. The version is
    // kept per account: one key for the whole file let the first account opened after a new version mark
    // every other account's roll-ups current, which filtered lists now count from (`rolledUpCount`). A file
    // marked so that holds no other account's rows is current as it is (the one account was recounted).
    const key = `rollups:${account}`;
    const version = (q: Kysely<AppDatabase>, which = key) =>
      q.selectFrom('index_meta').select('value').where('key', '=', which).executeTakeFirst();
    if ((await version(db))?.value !== ROLLUPS_VERSION)
      await context.write(async (trx) => {
        if ((await version(trx))?.value === ROLLUPS_VERSION) return;
        const other = (op: '<' | '>') =>
          trx.selectFrom('collections').select('account').where('account', op, account).limit(1).execute();
        const alone = !(await other('<')).length && !(await other('>')).length;
        if ((await version(trx, 'rollups'))?.value !== ROLLUPS_VERSION || !alone) await rebuildRollups(trx, account);
        await trx
          .insertInto('index_meta')
          .values({ key, value: ROLLUPS_VERSION })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: ROLLUPS_VERSION }))
          .execute();
      });

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
