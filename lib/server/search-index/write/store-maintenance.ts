import 'server-only';
import { sql, type SqlBool, type Transaction } from 'kysely';
import { insertRows } from '../../database/bulk-rows';
import type { AppDb } from '../../database/connect';
import { lockIndexWrites } from '../../database/dialect';
import { DRIFT_BASELINE_KEY, type AppDatabase } from '../../database/schema';
import {
  namePairTokens,
  phoneCountries,
  sealAad,
  spokenTokens,
  type BlindKeys,
  type Contact,
  type TokenKind,
} from '../shared/blind';
import { nameWordTokens, writeNameWords } from './name-words';
import { notePhoneCountries, PHONE_COUNTRIES } from '../shared/phone-countries';
import { storedPhone, type StoredPhone } from '../shared/phones';
import { pruneRollups } from './rollups';
import { CONTACTS_DONE, CONTACTS_LINKED, HISTORY_SINCE } from '../shared/meta-keys';
import { openedIdsOnSqlite } from '../shared/opened-ids';
import { chunks, TOKENS_PER_STATEMENT, yieldToRequests, type StoreContext } from './store-context';

/**
 * The index's upkeep, run by the leader between the sync's steps: the token backfills of an index written
 * before a kind of token existed, the planner's statistics after a full scan, and the count of rows.
 */
/**
 * Records a slice of a token backfill reads, opens and writes tokens for. At 1,000,000 collections on
 * SQLite (the name pairs): ~6 ms a slice, the whole backfill 59 s beside the service's loop, the event loop
 * held 18.5 ms at p99 (250 a slice: 47.5 ms, in the same time); PostgreSQL 80 s.
 */
const TOKENS_PER_SLICE = 100;
/** A backfill's cursor once every record has its tokens. */
const BACKFILL_DONE = 'done';

/**
 * Token kinds added after the index's first version, each with a backfill of its own (a cursor in
 * `index_meta`, absent on an index opened before the kind existed): name pairs, the e-mail's words (with
 * the account's phone countries), then the vocabulary of name words.
 */
const BACKFILLS = [
  {
    name: 'name_pairs',
    tokens: (keys: BlindKeys, contact: Contact) =>
      namePairTokens(keys, contact).map((token) => ({ kind: 'name2' as TokenKind, token })),
  },
  { name: 'spoken_tokens', tokens: spokenTokens },
  /** The forgiving forms of the account's name words (table `name_words`), once per word. */
  { name: 'name_words', tokens: (): { kind: TokenKind; token: string }[] => [] },
] as const;
type Backfill = (typeof BACKFILLS)[number]['name'];

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

/** A backfill's cursor key for an account. */
export const backfillKey = (name: Backfill, account: number) => `${name}:${account}`;
/** Every backfill's cursor keys (emptied with the index when the secret changes). */
export const BACKFILL_KEY_PATTERNS = [
  ...BACKFILLS.map((b) => `${b.name}:%`),
  `${PHONE_COUNTRIES}:%`,
  `${HISTORY_SINCE}:%`,
  `${CONTACTS_LINKED}:%`,
];

const cursorOf = async (q: AppDb | Transaction<AppDatabase>, key: string) =>
  (await q.selectFrom('index_meta').select('value').where('key', '=', key).executeTakeFirst())?.value;

/** Marks each backfill a store has not met: done when it holds no rows yet, else to run from the start. */
export async function markBackfills(db: AppDb, account: number): Promise<Set<Backfill>> {
  const done = new Set<Backfill>();
  for (const { name } of BACKFILLS) {
    const key = backfillKey(name, account);
    if ((await cursorOf(db, key)) === undefined) {
      const anyRow = await db.selectFrom('collections').select('id').where('account', '=', account).limit(1).execute();
      await db
        .insertInto('index_meta')
        .values({ key, value: anyRow.length ? '' : BACKFILL_DONE })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    }
    if ((await cursorOf(db, key)) === BACKFILL_DONE) done.add(name);
  }
  return done;
}

export function createMaintenance(store: StoreContext, backfilled: Set<Backfill>) {
  const { db, dialect, account, accountKey, keys, write } = store;
  const reads = store.connection.reads ?? db;
  const done = new Set(backfilled);

  /** One slice of a backfill, under the write lock; the cursor it moved to. */
  const slice = (backfill: (typeof BACKFILLS)[number]) =>
    // Under the write lock, from reading the cursor to moving it: a record written meanwhile (with its
    // tokens, from its new contact) is never given tokens of the contact it had before.
    write(async (trx) => {
      const key = backfillKey(backfill.name, account);
      const cursor = (await cursorOf(trx, key)) ?? BACKFILL_DONE;
      if (cursor === BACKFILL_DONE) return { moved: cursor, words: [] as string[] };
      const rows = await trx
        .selectFrom('collection_details')
        .select(['id', 'contact_sealed'])
        .where('account', '=', account)
        .where('id', '>', cursor)
        .orderBy('id')
        .limit(TOKENS_PER_SLICE)
        .execute();
      const phones: (StoredPhone | null)[] = [];
      const contacts: Contact[] = [];
      const tokens = rows.flatMap(({ id, contact_sealed }) => {
        try {
          const contact = keys.open(contact_sealed, sealAad(accountKey, id));
          contacts.push(contact);
          if (backfill.name === 'spoken_tokens') phones.push(storedPhone(contact.phone));
          return backfill.tokens(keys, contact).map((t) => ({ account, id, ...t }));
        } catch {
          return []; // sealed under another secret: the store was emptied at open, so this cannot happen
        }
      });
      const words =
        backfill.name === 'name_words' ? store.words.pending(keys, account, nameWordTokens(keys, contacts)) : null;
      if (words) await writeNameWords(trx, words.rows);
      for (const part of chunks(tokens, TOKENS_PER_STATEMENT))
        await (await insertRows(trx, 'contact_tokens', part)).onConflict((oc) => oc.doNothing()).execute();
      if (backfill.name === 'spoken_tokens') await notePhoneCountries(trx, account, phoneCountries(phones));
      const moved = rows.length < TOKENS_PER_SLICE ? BACKFILL_DONE : rows.at(-1)!.id;
      await trx.updateTable('index_meta').set({ value: moved }).where('key', '=', key).execute();
      return { moved, words: words?.words ?? [] };
    }).then(({ moved, words }) => {
      store.words.written(words);
      return moved;
    });

  return {
    /**
     * Whether every record has its name-pair tokens (blind.ts `namePairTokens`): true for an index written
     * by this version from the start; an older one gets them from `backfillTokens`, and until then a
     * search of several name words merges the single words' ranges as before.
     */
    get namePairsReady() {
      return done.has('name_pairs');
    },
    /**
     * Learns the backfills another process finished (the leader writes them; every replica reads by them):
     * without it a replica that is not the leader would search as if pairs were missing until it restarted.
     */
    async refreshBackfills(): Promise<void> {
      for (const { name } of BACKFILLS)
        if (!done.has(name) && (await cursorOf(db, backfillKey(name, account))) === BACKFILL_DONE) done.add(name);
    },
    /** Whether every record has every kind of token this version writes. */
    get tokensReady() {
      return BACKFILLS.every((b) => done.has(b.name));
    },
    /**
     * Writes the tokens of kinds records were written without, a slice at a time for up to `budgetMs`,
     * one backfill after the other; true once all have them.
     */
    async backfillTokens(budgetMs: number): Promise<boolean> {
      const until = performance.now() + budgetMs;
      for (const backfill of BACKFILLS) {
        while (!done.has(backfill.name)) {
          if ((await slice(backfill)) === BACKFILL_DONE) done.add(backfill.name);
          else if (performance.now() >= until) return false;
          else await yieldToRequests();
        }
      }
      return true;
    },
    /**
     * Rows visible to searches. Read where the searches read (`reads`): a search and the status line never
     * wait for the sync's transaction in flight on the writer (up to ~100 ms a page at 1,000,000 rows).
     */
    async indexedCount(): Promise<number> {
      // The whole-account roll-up rows count every row once, in the same transactions that write them:
      // a handful of rows to add up, where count(*) reads a million (100-250 ms on PostgreSQL).
      const row = await reads
        .selectFrom('rollups')
        .select(sql<number>`coalesce(sum(created_count), 0)`.as('n'))
        .where('account', '=', account)
        .where('grain', '=', 'a')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Rows of collections the list does not return, indexed because a user opened them by id (read as above). */
    async openedCount(): Promise<number> {
      // (By their partial index on SQLite: read otherwise, 100-350 ms of every status line at 350,000 rows
      // of a building index, measured.)
      if (dialect === 'sqlite') {
        const { rows } = await sql<{ n: number }>`select count(*) as n from ${openedIdsOnSqlite(account)}`.execute(
          reads,
        );
        return Number(rows[0]?.n ?? 0);
      }
      const row = await reads
        .selectFrom('collection_details')
        .select(sql<number>`count(*)`.as('n'))
        .where('account', '=', account)
        .where('type', '<>', 'integrated')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /**
     * Deletes the rows of every other account no replica has used for `days` (an upstream the dashboard no
     * longer reads, or an account renamed by INDEX_ACCOUNT), and of accounts that no longer exist: rows a
     * replica still on a former INDEX_SECRET wrote under its account after the index was emptied for the new
     * one, until its health check saw the change (no row of `accounts` names them, so nothing else would
     * ever delete them). A table at a time, each in a transaction of its own under that account's write lock.
     * An account is in use while a replica syncs it (`lease` marks it, hourly); one never marked since its
     * time was first kept (migration 0016) starts counting now. Returns the accounts pruned.
     */
    async pruneAccounts(days: number): Promise<number> {
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
    },
    /**
     * A full scan that began at `startedAt` completed: the first one sets the drift report's baseline; contact links are whole when it began after they were
     * kept, and no collection only opened by its id (no scan sees those) still waits for its link.
     */
    async scanCompleted(startedAt: string): Promise<void> {
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
    },
    /** Deletes this account's history first seen more than `days` ago (HISTORY_RETENTION_DAYS). */
    async pruneHistory(days: number): Promise<number> {
      const cutoff = new Date((await store.now()) - days * 86_400_000).toISOString();
      const result = await db
        .deleteFrom('collection_history')
        .where('account', '=', account)
        .where('seen_at', '<', cutoff)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
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
