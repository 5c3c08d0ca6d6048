import 'server-only';
import { sql, type Transaction } from 'kysely';
import type { AppDb } from '../database/connect';
import type { AppDatabase } from '../database/schema';
import { namePairTokens, sealAad } from './blind';
import { pruneRollups } from './rollups';
import { chunks, TOKENS_PER_STATEMENT, yieldToRequests, type StoreContext } from './store-context';

/**
 * The index's upkeep, run by the leader between the sync's steps: the name-pair backfill of an index
 * written before pairs existed, the planner's statistics after a full scan, and the count of rows.
 */
/**
 * Records a slice of the name-pair backfill reads, opens and writes pairs for. At 1,000,000 collections on
 * SQLite: ~6 ms a slice, the whole backfill 59 s beside the service's loop, the event loop held 18.5 ms at
 * p99 (250 a slice: 47.5 ms, in the same time); PostgreSQL 80 s.
 */
const PAIRS_PER_SLICE = 100;
/** The backfill's cursor once every record has its pairs. */
const PAIRS_DONE = 'done';

/** The name-pair backfill's cursor (`index_meta`): absent on an index opened before pairs existed. */
export const pairsKey = (account: number) => `name_pairs:${account}`;

export const pairsCursor = async (q: AppDb | Transaction<AppDatabase>, account: number) =>
  (await q.selectFrom('index_meta').select('value').where('key', '=', pairsKey(account)).executeTakeFirst())?.value;

/** Marks a store new to name pairs: done when it holds no rows yet, else to be backfilled from the start. */
export async function markNamePairs(db: AppDb, account: number): Promise<boolean> {
  if ((await pairsCursor(db, account)) === undefined) {
    const anyRow = await db.selectFrom('collections').select('id').where('account', '=', account).limit(1).execute();
    await db
      .insertInto('index_meta')
      .values({ key: pairsKey(account), value: anyRow.length ? '' : PAIRS_DONE })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }
  return (await pairsCursor(db, account)) === PAIRS_DONE;
}

export function createMaintenance(store: StoreContext, pairsReady: boolean) {
  const { db, dialect, account, accountKey, keys, write } = store;
  let namePairsReady = pairsReady;
  return {
    /**
     * Whether every record has its name-pair tokens (blind.ts `namePairTokens`): true for an index written
     * by this version from the start; an older one gets them from `backfillNamePairs`, and until then a
     * search of several name words merges the single words' ranges as before.
     */
    get namePairsReady() {
      return namePairsReady;
    },
    /** Writes the pair tokens of records written without them, a slice at a time for up to `budgetMs`; true once all have them. */
    async backfillNamePairs(budgetMs: number): Promise<boolean> {
      const until = performance.now() + budgetMs;
      while (!namePairsReady) {
        // Under the write lock, from reading the cursor to moving it: a record written meanwhile (with its
        // pairs, from its new contact) is never given pairs of the contact it had before.
        const next = await write(async (trx) => {
          const cursor = (await pairsCursor(trx, account)) ?? PAIRS_DONE;
          if (cursor === PAIRS_DONE) return cursor;
          const slice = await trx
            .selectFrom('collection_details')
            .select(['id', 'contact_sealed'])
            .where('account', '=', account)
            .where('id', '>', cursor)
            .orderBy('id')
            .limit(PAIRS_PER_SLICE)
            .execute();
          const tokens = slice.flatMap(({ id, contact_sealed }) => {
            try {
              const contact = keys.open(contact_sealed, sealAad(accountKey, id));
              return namePairTokens(keys, contact).map((token) => ({ account, kind: 'name2', token, id }));
            } catch {
              return []; // sealed under another secret: the store was emptied at open, so this cannot happen
            }
          });
          for (const part of chunks(tokens, TOKENS_PER_STATEMENT))
            await trx
              .insertInto('contact_tokens')
              .values(part)
              .onConflict((oc) => oc.doNothing())
              .execute();
          const moved = slice.length < PAIRS_PER_SLICE ? PAIRS_DONE : slice.at(-1)!.id;
          await trx.updateTable('index_meta').set({ value: moved }).where('key', '=', pairsKey(account)).execute();
          return moved;
        });
        if (next === PAIRS_DONE) namePairsReady = true;
        else if (performance.now() >= until) break;
        else await yieldToRequests();
      }
      return namePairsReady;
    },
    /** Rows visible to searches. */
    async indexedCount(): Promise<number> {
      // The whole-account roll-up rows count every row once, in the same transactions that write them:
      // a handful of rows to add up, where count(*) reads a million (100-250 ms on PostgreSQL).
      const row = await db
        .selectFrom('rollups')
        .select(sql<number>`coalesce(sum(created_count), 0)`.as('n'))
        .where('account', '=', account)
        .where('grain', '=', 'a')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Refreshes the query planner's statistics (after a full scan: the shape of the data is known). */
    async analyze(): Promise<void> {
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
    },
  };
}
