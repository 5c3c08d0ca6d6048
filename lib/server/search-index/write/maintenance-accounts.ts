import 'server-only';
import { sql, type SqlBool } from 'kysely';
import type { AppDb } from '../../database/connect';
import { lockIndexWrites } from '../../database/dialect';
import { BACKFILL_KEY_PATTERNS } from './maintenance-backfills';
import { yieldToRequests, type StoreContext } from './store-context';

/** Every table whose rows carry an account, in the order an account's rows are deleted (references last). */
const ACCOUNT_TABLES = [
  'collection_history',
  'contact_tokens',
  'contact_tokens_staged',
  'name_words',
  'collection_details',
  'rollup_durations',
  'rollups',
  'sync_lease',
  'sync_state',
  'collections',
] as const;

/**
 * The accounts a table holds rows of: each found by one step down the tree its key leads with (`account`
 * first in every one of them), not by reading its rows, so a million rows of one account cost a few reads.
 */
async function accountsOf(db: AppDb, table: (typeof ACCOUNT_TABLES)[number]): Promise<number[]> {
  // The staged tokens have no tree (a first scan's, merged and deleted as it goes): read once.
  if (table === 'contact_tokens_staged')
    return (await db.selectFrom(table).select('account').distinct().execute()).map((r) => Number(r.account));
  const { rows } = await sql<{ account: number | string | null }>`
    with recursive held(account) as (
      select min(account) from ${sql.table(table)}
      union all
      select (select min(t.account) from ${sql.table(table)} t where t.account > held.account)
      from held where held.account is not null
    )
    select account from held where account is not null`.execute(db);
  return rows.map((r) => Number(r.account));
}

/** Every account number some table's rows carry (whether or not `accounts` still holds it). */
export async function numbersHeld(db: AppDb): Promise<Set<number>> {
  const numbers = new Set<number>();
  for (const table of ACCOUNT_TABLES) for (const id of await accountsOf(db, table)) numbers.add(id);
  return numbers;
}

/**
 * Deletes the rows of other accounts unused for `days`, and of accounts that no longer exist
 * (store-maintenance.ts `IndexMaintenance.pruneAccounts`): a table at a time, each in a transaction of its
 * own under that account's write lock. Returns the accounts pruned.
 */
export async function pruneAccounts(store: StoreContext, days: number): Promise<number> {
  const { db, account } = store;
  const now = await store.now();
  await db
    .updateTable('accounts')
    .set({ opened_at: new Date(now).toISOString() })
    .where('opened_at', 'is', null)
    .execute();
  const cutoff = new Date(now - days * 86_400_000).toISOString();
  const stale = await db
    .selectFrom('accounts')
    .select('id')
    .where('id', '!=', account)
    .where('opened_at', '<', cutoff)
    .execute();
  // Read after the tables: an account opened meanwhile (its row first, then its rows) is known here.
  const orphaned = await numbersHeld(db);
  for (const { id } of await db.selectFrom('accounts').select('id').execute()) orphaned.delete(id);
  orphaned.delete(account);
  // Each delete checks again that no replica uses the account: one opened (or renamed to) since the lists
  // above were read keeps every row.
  const unused = (id: number) =>
    sql<SqlBool>`not exists (select 1 from accounts where id = ${id} and (opened_at is null or opened_at >= ${cutoff}))`;
  for (const id of [...stale.map((a) => a.id), ...orphaned]) {
    for (const table of ACCOUNT_TABLES)
      await db.transaction().execute(async (trx) => {
        await lockIndexWrites(trx, id);
        await trx.deleteFrom(table).where('account', '=', id).where(unused(id)).execute();
      });
    // Its cursors and marks, and the version of its roll-ups (store.ts).
    for (const pattern of [...BACKFILL_KEY_PATTERNS, 'rollups:%'])
      await db
        .deleteFrom('index_meta')
        .where('key', '=', pattern.replace('%', String(id)))
        .where(unused(id))
        .execute();
    await db.deleteFrom('accounts').where('id', '=', id).where('opened_at', '<', cutoff).execute();
    await yieldToRequests();
  }
  return stale.length + orphaned.size;
}
