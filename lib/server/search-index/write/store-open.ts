import 'server-only';
import type { Kysely, Transaction } from 'kysely';
import type { AppDb } from '../../database/connect';
import { dialectOf, lockIndexWrites } from '../../database/dialect';
import type { AppDatabase } from '../../database/schema';
import type { BlindKeys } from '../shared/blind';
import { CONTACTS_DONE, CONTACTS_LINKED, HISTORY_SINCE } from '../shared/meta-keys';
import { rebuildRollups } from './rollups';
import type { StoreContext } from './store-context';
import { BACKFILL_KEY_PATTERNS, numbersHeld } from './store-maintenance';

/**
 * What opening the index's store (store.ts `openIndexStore`) checks and writes, in this order: the secret
 * the rows were written with (`openSecret`), the account and its sync state (`openAccount`), the account's
 * marks (`markOpened`), and roll-ups of an older version recounted (`recountRollups`).
 */

/** What happened at open: `rebuilt` when the secret changed or the file could not be migrated. */
export type Opened = 'new' | 'existing' | 'rebuilt';

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

/**
 * Checks what the rows were written with: a secret that does not match empties the index's tables (never the
 * audit log or the drift report), so it is rebuilt instead of answering with tokens nobody can match. Marks
 * the rows with this secret; returns what happened.
 */
export async function openSecret(
  db: AppDb,
  keys: BlindKeys,
  /** The file could not be migrated and was set aside (database/migrate.ts): the index starts again. */
  setAside: boolean,
  onRebuild?: (why: 'secret' | 'schema') => void,
): Promise<Opened> {
  const check = await db.selectFrom('index_meta').select('value').where('key', '=', 'key_check').executeTakeFirst();
  let opened: Opened = setAside ? 'rebuilt' : check ? 'existing' : 'new';
  if (setAside) onRebuild?.('schema');
  if (check && check.value !== keys.checkValue) {
    // Tokens and ciphertext of another secret are useless: start again rather than answer wrong. Checked
    // again under the lock and marked in the same transaction: replicas restarting together with the new
    // secret empty the index once, never one after another's accounts and state were written.
    const emptied = await db.transaction().execute(async (trx) => {
      await lockIndexWrites(trx, 0);
      const now = await trx.selectFrom('index_meta').select('value').where('key', '=', 'key_check').executeTakeFirst();
      if (now?.value === keys.checkValue) return false;
      await emptyIndex(trx);
      await trx.updateTable('index_meta').set({ value: keys.checkValue }).where('key', '=', 'key_check').execute();
      for (const pattern of BACKFILL_KEY_PATTERNS)
        await trx.deleteFrom('index_meta').where('key', 'like', pattern).execute();
      return true;
    });
    opened = 'rebuilt';
    if (emptied) onRebuild?.('secret');
  }
  await db
    .insertInto('index_meta')
    .values({ key: 'key_check', value: keys.checkValue })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: keys.checkValue }))
    .execute();
  return opened;
}

/**
 * The account's row by what identifies it (`accountKey`), made when missing, and its sync state: its id, and
 * the name its contacts are sealed under (`seal_key`: null when its key).
 */
export async function openAccount(
  db: AppDb,
  accountKey: string,
  /** Names an older version gave the same account (store.ts `formerAccounts`). */
  formerAccounts: string[] | undefined,
  onCarriedOver?: () => void,
): Promise<{ id: number; seal_key: string | null }> {
  // The account by what identifies it; one kept under a former name is renamed, its rows kept (its sealed
  // contacts stay bound to the name they were sealed under). Under the lock: replicas opening together
  // carry it over once.
  const carried = await db.transaction().execute(async (trx) => {
    await lockIndexWrites(trx, 0);
    const found = await trx.selectFrom('accounts').select('id').where('key', '=', accountKey).executeTakeFirst();
    if (found) return false;
    for (const former of formerAccounts ?? []) {
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
  if (carried) onCarriedOver?.();
  const found = await db
    .selectFrom('accounts')
    .select(['id', 'seal_key'])
    .where('key', '=', accountKey)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('sync_state')
    .values({ account: found.id, scan_page: 1, scan_missed: '[]', scans_completed: 0 })
    .onConflict((oc) => oc.column('account').doNothing())
    .execute();
  return found;
}

/** The account's marks at open: in use now, its history kept from now, its contact pages' state. */
export async function markOpened(context: StoreContext): Promise<void> {
  const { db, account } = context;
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
}

/**
 * Rows indexed before roll-ups existed (or under an older version of them) are counted once, from the
 * rows (no rescan needed). Under the write lock, from the check to the mark: no replica's write lands
 * between the count and the replacement, and replicas starting together recount once. The version is
 * kept per account: one key for the whole file let the first account opened after a new version mark
 * every other account's roll-ups current, which filtered lists now count from (`rolledUpCount`). A file
 * marked so that holds no other account's rows is current as it is (the one account was recounted).
 */
export async function recountRollups(context: StoreContext): Promise<void> {
  const { db, account } = context;
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
}
