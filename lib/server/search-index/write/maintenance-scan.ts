import 'server-only';
import { sql } from 'kysely';
import { DRIFT_BASELINE_KEY } from '../../database/schema';
import { CONTACTS_DONE, CONTACTS_LINKED } from '../shared/meta-keys';
import { cursorOf } from './maintenance-backfills';
import { pruneRollups } from './rollups';
import { yieldToRequests, type StoreContext } from './store-context';

/**
 * What the sync does once a full scan completed (sync.ts): the marks that scan makes whole, the history
 * pruned, the planner's statistics refreshed.
 */

/**
 * A full scan that began at `startedAt` completed (store-maintenance.ts `IndexMaintenance.scanCompleted`): the
 * drift report's baseline, and the account's contact links marked whole when nothing waits for one.
 */
export async function scanCompleted(store: StoreContext, startedAt: string): Promise<void> {
  const { db, account } = store;
  // The drift report's baseline: what the upstream sent up to the first whole sync (kept once, for good).
  await db
    .insertInto('index_meta')
    .values({ key: DRIFT_BASELINE_KEY, value: new Date(await store.now()).toISOString() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const key = `${CONTACTS_LINKED}:${account}`;
  const linked = await cursorOf(db, key);
  if (!linked?.startsWith('after:') || startedAt < linked.slice('after:'.length)) return;
  const unlinked = await db
    .selectFrom('collection_details')
    .select('id')
    .where('account', '=', account)
    .where('type', '<>', 'integrated')
    .where((eb) => eb.or([eb('snapshot', 'is', null), eb('snapshot', 'not like', '%"contactId"%')]))
    .limit(1)
    .execute();
  if (!unlinked.length)
    await db.updateTable('index_meta').set({ value: CONTACTS_DONE }).where('key', '=', key).execute();
}

/** Deletes this account's history first seen more than `days` ago (HISTORY_RETENTION_DAYS). */
export async function pruneHistory(store: StoreContext, days: number): Promise<number> {
  const { db, account } = store;
  const cutoff = new Date((await store.now()) - days * 86_400_000).toISOString();
  const result = await db
    .deleteFrom('collection_history')
    .where('account', '=', account)
    .where('seen_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Refreshes the query planner's statistics (after a full scan: the shape of the data is known). */
export async function analyze(store: StoreContext): Promise<void> {
  const { db, dialect, account, write } = store;
  await write((trx) => pruneRollups(trx, account));
  if (dialect === 'sqlite') {
    // SQLite's own advice for long-lived connections: it analyzes only what changed enough, reading
    // a sample of each index (analysis_limit). A full ANALYZE of 1,000,000 rows held the event loop
    // for 20 s at the end of the first full sync (pages and probes stalled, keep-alive sockets reset);
    // sampled in one statement, ~1 s (collections alone 0.5 s: eight indexes). So optimize only says
    // what it would analyze (0x10003, its debug mode) and each of those tables is analyzed one index
    // at a time, answering waiting requests in between (~60-150 ms each at 1,000,000 rows). Later
    // scans find the statistics still right and analyze nothing (1 ms).
    await sql`PRAGMA analysis_limit=400`.execute(db);
    const plan = await sql<{ optimize: string }>`PRAGMA optimize=0x10003`.execute(db);
    for (const { optimize } of plan.rows) {
      const table = /^ANALYZE "main"\."(.+)"$/.exec(optimize)?.[1]?.replaceAll('""', '"');
      if (!table) continue;
      const indexes = await sql<{ name: string }>`select name from pragma_index_list(${table})`.execute(db);
      for (const name of indexes.rows.length ? indexes.rows.map((r) => r.name) : [table]) {
        await yieldToRequests();
        await sql`ANALYZE ${sql.table(`main.${name}`)}`.execute(db);
      }
    }
  } else {
    // Fresh statistics, and the visibility map that lets counts read the indexes alone (autovacuum
    // gets there too, later). Outside a transaction, as VACUUM must be; it blocks no reader or writer.
    await sql`vacuum (analyze) collections, collection_details, contact_tokens, rollups`.execute(db);
  }
}
