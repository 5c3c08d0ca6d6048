import 'server-only';
import { Migrator, sql, type Kysely, type Transaction } from 'kysely';
import { existsSync, renameSync } from 'node:fs';
import { connect, type Connection, type DatabaseTarget, type Dialect } from '../database/connect';
import { lockIndexWrites } from '../database/dialect';
import type { Collection } from '@/lib/api/schemas';
import { lineItemTotals } from '@/lib/format/money';
import { contactTokens, namePairTokens, referenceKey, sealAad, type BlindKeys } from './blind';
import { migrationProvider } from './migrations';
import { applyDelta, pruneRollups, rebuildRollups, RollupDelta, type RollupRecord } from './rollups';
import type { IndexDatabase } from './schema';

/**
 * The index's store: one account's rows in a SQLite file or a PostgreSQL
 * database shared by replicas (database/connect.ts), through the same Kysely
 * queries, migrated at open (on PostgreSQL under Kysely's migration lock, so
 * replicas starting together apply each migration once). A secret that does
 * not match the one the rows were written with empties the store, so it is
 * rebuilt instead of answering with tokens nobody can match; a SQLite file
 * whose schema this version cannot migrate is set aside and started again (the
 * index is derived data: the upstream has it all). A PostgreSQL database is
 * never set aside: a failed migration is an error for the operator.
 */
export type IndexDb = Kysely<IndexDatabase>;
export type SyncState = IndexDatabase['sync_state'];

export type IndexStore = {
  db: IndexDb;
  dialect: Dialect;
  /** The account's id in this store (rows carry it). */
  account: number;
  /** The account's non-reversible key (sealed contacts are bound to it). */
  accountKey: string;
  keys: BlindKeys;
  /**
   * Inserts or refreshes records as the upstream showed them at `seenAt`. `bulk` (an unpaced sync)
   * writes larger slices: fewer commits, each blocking the event loop longer.
   */
  upsert(records: Collection[], seenAt: string, options?: { bulk?: boolean }): Promise<void>;
  /** Removes rows no scan, poll or live read has seen since `before` (the start of a completed scan). */
  removeUnseen(before: string): Promise<number>;
  state(): Promise<SyncState>;
  saveState(patch: Partial<Omit<SyncState, 'account'>>): Promise<void>;
  /** Takes or renews the sync lease for `ttlMs`; false while another live process holds it. */
  lease(owner: string, now: number, ttlMs: number): Promise<boolean>;
  /** Gives the lease up (a clean stop), so another process need not wait for it to lapse. */
  release(owner: string): Promise<void>;
  /** The same, synchronously: for a process's `exit` event, where nothing asynchronous runs. */
  releaseNow(owner: string): void;
  /**
   * Whether every record has its name-pair tokens (blind.ts `namePairTokens`): true for an index written
   * by this version from the start; an older one gets them from `backfillNamePairs`, and until then a
   * search of several name words merges the single words' ranges as before.
   */
  readonly namePairsReady: boolean;
  /** Writes the pair tokens of records written without them, a slice at a time for up to `budgetMs`; true once all have them. */
  backfillNamePairs(budgetMs: number): Promise<boolean>;
  /** Rows visible to searches. */
  indexedCount(): Promise<number>;
  /** Refreshes the query planner's statistics (after a full scan: the shape of the data is known). */
  analyze(): Promise<void>;
  close(): Promise<void>;
  /** What happened at open: `rebuilt` when the secret changed or the file could not be migrated. */
  opened: 'new' | 'existing' | 'rebuilt';
  /** Whether the rows are still written with this store's secret (another replica may have rebuilt them). */
  sameSecret(): Promise<boolean>;
};

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

function toRows(keys: BlindKeys, account: number, accountKey: string, c: Collection, seenAt: string) {
  const { firstName, lastName, email, phone } = c.contact;
  return {
    row: {
      account,
      id: c.id,
      reference_key: referenceKey(c.reference),
      status: c.status,
      amount_value: c.amount.value,
      currency: c.amount.currency,
      created_at: iso(c.createdAt)!,
      updated_at: iso(c.updatedAt)!,
      completed_at: iso(c.completedAt),
      seen_at: seenAt,
    },
    details: {
      account,
      id: c.id,
      reference: c.reference,
      type: c.type,
      completed_at: iso(c.completedAt),
      line_item_count: c.metadata.length,
      line_item_totals: JSON.stringify(lineItemTotals(c.metadata)),
      contact_sealed: keys.seal({ firstName, lastName, email, phone }, sealAad(accountKey, c.id)),
    },
  };
}

/**
 * Records per transaction. SQLite writes block the event loop (better-sqlite3 is synchronous), so
 * a page is written in slices with a turn of the loop between them: a request that arrives during a
 * sync waits for one slice (a few ms at a million rows), not for the whole page.
 */
const RECORDS_PER_SLICE = 25;
/** Bumped when what the roll-ups count changes: they are then recomputed from the rows at open. */
const ROLLUPS_VERSION = '2';
const RECORDS_PER_BULK_SLICE = 100;
const TOKENS_PER_STATEMENT = 2_000;
/**
 * Records a slice of the name-pair backfill reads, opens and writes pairs for. At 1,000,000 collections on
 * SQLite: ~6 ms a slice, the whole backfill 59 s beside the service's loop, the event loop held 18.5 ms at
 * p99 (250 a slice: 47.5 ms, in the same time); PostgreSQL 80 s.
 */
const PAIRS_PER_SLICE = 100;
/** The backfill's cursor once every record has its pairs. */
const PAIRS_DONE = 'done';
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));
const chunks = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

type StoreKeys = Pick<IndexStore, 'keys' | 'account' | 'accountKey'>;

/** The tokens of records as the index holds them (from their sealed contacts), deleted by key, kind by kind. */
async function deleteTokens(trx: Transaction<IndexDatabase>, store: StoreKeys, sealed: Map<string, string>) {
  const { keys, account, accountKey } = store;
  const byKind = new Map<string, Set<string>>();
  for (const [id, contact] of sealed) {
    let opened;
    try {
      opened = keys.open(contact, sealAad(accountKey, id));
    } catch {
      continue; // sealed under another secret: the store was emptied at open, so this cannot happen
    }
    for (const t of contactTokens(keys, opened)) {
      if (!byKind.has(t.kind)) byKind.set(t.kind, new Set());
      byKind.get(t.kind)!.add(t.token);
    }
  }
  const ids = [...sealed.keys()];
  for (const [kind, tokens] of byKind) {
    for (const part of chunks([...tokens], TOKENS_PER_STATEMENT)) {
      await trx
        .deleteFrom('contact_tokens')
        .where('account', '=', account)
        .where('kind', '=', kind)
        .where('token', 'in', part)
        .where('id', 'in', ids)
        .execute();
    }
  }
}

async function writeSlice(
  trx: Transaction<IndexDatabase>,
  store: StoreKeys,
  slice: Collection[],
  seenAt: string,
  /** The slice's records as the index already holds them: their sealed contacts and what the roll-ups counted. */
  previous: Map<string, { sealed: string; counted: RollupRecord }>,
) {
  const { keys, account, accountKey } = store;
  {
    const rows = slice.map((c) => toRows(keys, account, accountKey, c, seenAt));
    const delta = new RollupDelta();
    for (const old of previous.values()) delta.add(old.counted, -1);
    for (const r of rows) delta.add({ ...r.row, completed_at: r.details.completed_at }, 1);
    await applyDelta(trx, account, delta);
    await trx
      .insertInto('collections')
      .values(rows.map((r) => r.row))
      .onConflict((oc) =>
        oc.columns(['account', 'id']).doUpdateSet((eb) => ({
          reference_key: eb.ref('excluded.reference_key'),
          status: eb.ref('excluded.status'),
          amount_value: eb.ref('excluded.amount_value'),
          currency: eb.ref('excluded.currency'),
          created_at: eb.ref('excluded.created_at'),
          updated_at: eb.ref('excluded.updated_at'),
          completed_at: eb.ref('excluded.completed_at'),
          seen_at: eb.ref('excluded.seen_at'),
        })),
      )
      .execute();
    await trx
      .insertInto('collection_details')
      .values(rows.map((r) => r.details))
      .onConflict((oc) =>
        oc.columns(['account', 'id']).doUpdateSet((eb) => ({
          reference: eb.ref('excluded.reference'),
          type: eb.ref('excluded.type'),
          completed_at: eb.ref('excluded.completed_at'),
          line_item_count: eb.ref('excluded.line_item_count'),
          line_item_totals: eb.ref('excluded.line_item_totals'),
          contact_sealed: eb.ref('excluded.contact_sealed'),
        })),
      )
      .execute();
    // Records seen before: their old tokens, found again from their old sealed contact, go first.
    if (previous.size) await deleteTokens(trx, store, new Map([...previous].map(([id, p]) => [id, p.sealed])));
    const tokens = slice.flatMap((c) => contactTokens(keys, c.contact).map((t) => ({ account, id: c.id, ...t })));
    for (const part of chunks(tokens, TOKENS_PER_STATEMENT)) {
      await trx
        .insertInto('contact_tokens')
        .values(part)
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
}

/**
 * The index's database with no index in it: for the audit log when the index is turned off (INDEX=off,
 * or no INDEX_SECRET), so who saw what is kept either way. Never open while an index store is.
 */
export async function openDatabaseOnly(target: DatabaseTarget | Connection): Promise<IndexDb> {
  if ('db' in target) {
    await migrate(target.db);
    return target.db;
  }
  return (await migrated(target)).connection.db;
}

/** Applies every migration not yet applied; on PostgreSQL, Kysely holds an advisory lock while it does. */
export async function migrate(db: IndexDb): Promise<void> {
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) throw error;
}

/** Migrates; a SQLite file this version cannot migrate (another schema, a half-applied one) is set aside. */
async function migrated(target: DatabaseTarget): Promise<{ connection: Connection; setAside: boolean }> {
  let connection = connect(target);
  try {
    await migrate(connection.db);
    return { connection, setAside: false };
  } catch (error) {
    await connection.db.destroy().catch(() => {});
    if (target.kind !== 'sqlite') throw error;
  }
  const { path } = target;
  const aside = `${path}.incompatible-${Date.now()}`;
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
  connection = connect(target);
  try {
    await migrate(connection.db);
  } catch (error) {
    await connection.db.destroy();
    throw error;
  }
  return { connection, setAside: true };
}

export async function openIndexStore(options: {
  /** Where the store lives; or an open connection (tests: PGlite), migrated here and closed with the store. */
  target: DatabaseTarget | Connection;
  keys: BlindKeys;
  /** The account's non-reversible key (blind.ts `accountKey`). */
  account: string;
  onRebuild?: (why: 'secret' | 'schema') => void;
}): Promise<IndexStore> {
  const { keys, account: accountKey } = options;
  const { connection, setAside } =
    'db' in options.target
      ? await migrate(options.target.db).then(() => ({ connection: options.target as Connection, setAside: false }))
      : await migrated(options.target);
  const { db, dialect } = connection;

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
        const tables = [
          'rollup_durations',
          'rollups',
          'contact_tokens',
          'collection_details',
          'collections',
          'sync_state',
          'sync_lease',
          'accounts',
        ] as const;
        for (const table of tables) {
          await trx.deleteFrom(table).execute();
        }
        await trx.updateTable('index_meta').set({ value: keys.checkValue }).where('key', '=', 'key_check').execute();
        await trx.deleteFrom('index_meta').where('key', 'like', 'name_pairs:%').execute();
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
    await db
      .insertInto('accounts')
      .values({ key: accountKey })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const { id: account } = await db
      .selectFrom('accounts')
      .select('id')
      .where('key', '=', accountKey)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('sync_state')
      .values({ account, scan_page: 1, scan_missed: '[]', scans_completed: 0 })
      .onConflict((oc) => oc.column('account').doNothing())
      .execute();
    // Rows indexed before roll-ups existed are counted once, from the rows (no rescan needed).
    const rollupsMeta = await db
      .selectFrom('index_meta')
      .select('value')
      .where('key', '=', 'rollups')
      .executeTakeFirst();
    if (rollupsMeta?.value !== ROLLUPS_VERSION) {
      // Under the write lock, from the check to the mark: no replica's write lands between the count and the
      // replacement, and replicas starting together recount once.
      await db.transaction().execute(async (trx) => {
        await lockIndexWrites(trx, account);
        const again = await trx
          .selectFrom('index_meta')
          .select('value')
          .where('key', '=', 'rollups')
          .executeTakeFirst();
        if (again?.value === ROLLUPS_VERSION) return;
        await rebuildRollups(trx, account);
        await trx
          .insertInto('index_meta')
          .values({ key: 'rollups', value: ROLLUPS_VERSION })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: ROLLUPS_VERSION }))
          .execute();
      });
    }

    // Name-pair tokens (blind.ts): an index with rows but no mark was written before they existed, and its
    // records get them from their sealed contacts, in id order, behind a cursor (`backfillNamePairs`).
    const pairsKey = `name_pairs:${account}`;
    const pairsCursor = async (q: IndexDb | Transaction<IndexDatabase>) =>
      (await q.selectFrom('index_meta').select('value').where('key', '=', pairsKey).executeTakeFirst())?.value;
    if ((await pairsCursor(db)) === undefined) {
      const anyRow = await db.selectFrom('collections').select('id').where('account', '=', account).limit(1).execute();
      await db
        .insertInto('index_meta')
        .values({ key: pairsKey, value: anyRow.length ? '' : PAIRS_DONE })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    }
    let namePairsReady = (await pairsCursor(db)) === PAIRS_DONE;

    /** A write transaction: on PostgreSQL it first takes the account's write lock (dialect.ts). */
    const write = <T>(fn: (trx: Transaction<IndexDatabase>) => Promise<T>) =>
      db.transaction().execute(async (trx) => {
        await lockIndexWrites(trx, account);
        return fn(trx);
      });
    /** Records as the index holds them, with what the roll-ups counted of them and their sealed contact. */
    const counted = (trx: Transaction<IndexDatabase>) =>
      trx
        .selectFrom('collections as c')
        .innerJoin('collection_details as d', (join) =>
          join.onRef('d.account', '=', 'c.account').onRef('d.id', '=', 'c.id'),
        )
        .select([
          'c.id',
          'c.status',
          'c.amount_value',
          'c.currency',
          'c.created_at',
          'd.contact_sealed',
          'd.completed_at',
        ])
        .where('c.account', '=', account);
    /** What the index holds of these records now: their sealed contacts and what the roll-ups counted. */
    const previousOf = async (trx: Transaction<IndexDatabase>, ids: string[]) =>
      new Map(
        (await counted(trx).where('c.id', 'in', ids).execute()).map(
          (r) => [r.id, { sealed: r.contact_sealed, counted: { ...r, amount_value: Number(r.amount_value) } }] as const,
        ),
      );

    const store: IndexStore = {
      db,
      dialect,
      account,
      accountKey,
      keys,
      opened,
      async upsert(records, seenAt, options = {}) {
        // The same id twice in one batch (a page that shifted): the last one wins.
        const unique = [...new Map(records.map((c) => [c.id, c])).values()];
        if (!unique.length) return;
        // Most records a rescan or a live read meets are as the index has them: those at most get
        // `seen_at` (one statement); the rest are sealed, tokenised and written.
        const [stored, sync] = await Promise.all([
          db
            .selectFrom('collections')
            .select([
              'id',
              'status',
              'amount_value',
              'currency',
              'updated_at',
              'reference_key',
              'created_at',
              'completed_at',
              'seen_at',
            ])
            .where('account', '=', account)
            .where(
              'id',
              'in',
              unique.map((c) => c.id),
            )
            .execute(),
          db.selectFrom('sync_state').select('scan_started_at').where('account', '=', account).executeTakeFirst(),
        ]);
        const known = new Map(stored.map((r) => [r.id, r]));
        // A stored time equal to the upstream's text needs no Date (the usual case: both are ISO with ms).
        const sameTime = (stored: string | null, given: string | null) => stored === given || stored === iso(given);
        const isSame = (c: Collection) => {
          const r = known.get(c.id);
          return (
            r !== undefined &&
            r.status === c.status &&
            Number(r.amount_value) === c.amount.value &&
            r.currency === c.amount.currency &&
            sameTime(r.updated_at, c.updatedAt) &&
            sameTime(r.completed_at, c.completedAt) &&
            r.reference_key === referenceKey(c.reference)
          );
        };
        const sameIds = new Set(unique.filter(isSame).map((c) => c.id));
        const same = (c: Collection) => sameIds.has(c.id);
        // `seen_at` only answers "seen since the running scan began?" (what a completed scan did not see
        // since its start is removed), so only records not seen since then are marked, and with no scan
        // running none are: a live list page re-read no longer writes 100 rows (~1 ms of CPU a request).
        const scanStart = sync?.scan_started_at ?? null;
        const unchanged = unique
          .filter((c) => same(c) && scanStart !== null && known.get(c.id)!.seen_at < scanStart)
          .map((c) => c.id);
        if (unchanged.length) {
          await db
            .updateTable('collections')
            .set({ seen_at: seenAt })
            .where('account', '=', account)
            .where('id', 'in', unchanged)
            .execute();
        }
        const changed = unique.filter((c) => !same(c));
        const size = options.bulk ? RECORDS_PER_BULK_SLICE : RECORDS_PER_SLICE;
        for (const [i, slice] of chunks(changed, size).entries()) {
          if (i || unchanged.length) await yieldToRequests();
          // What the slice's records were is read under the write lock: another replica may have just
          // written one of them, and the roll-ups must count each change once.
          await write(async (trx) =>
            writeSlice(
              trx,
              store,
              slice,
              seenAt,
              await previousOf(
                trx,
                slice.map((c) => c.id),
              ),
            ),
          );
        }
      },
      removeUnseen: (before) =>
        write(async (trx) => {
          // One pass over the narrow rows finds what the scan did not see (no index on seen_at: every
          // write of a scan would pay for one); the rest is by key. Three passes blocked the event loop
          // ~0.5 s at the end of each scan of 1,000,000 rows.
          const unseen = await trx
            .selectFrom('collections')
            .select('id')
            .where('account', '=', account)
            .where('seen_at', '<', before)
            .execute();
          const delta = new RollupDelta();
          for (const part of chunks(
            unseen.map((r) => r.id),
            500,
          )) {
            const gone = await counted(trx).where('c.id', 'in', part).execute();
            for (const g of gone) delta.add(g, -1);
            await deleteTokens(trx, store, new Map(gone.map((g) => [g.id, g.contact_sealed])));
            await trx.deleteFrom('collection_details').where('account', '=', account).where('id', 'in', part).execute();
            await trx.deleteFrom('collections').where('account', '=', account).where('id', 'in', part).execute();
          }
          await applyDelta(trx, account, delta);
          return unseen.length;
        }),
      state: () => db.selectFrom('sync_state').selectAll().where('account', '=', account).executeTakeFirstOrThrow(),
      async saveState(patch) {
        await db.updateTable('sync_state').set(patch).where('account', '=', account).execute();
      },
      async lease(owner, now, ttlMs) {
        await db
          .insertInto('sync_lease')
          .values({ account, owner, expires_at: now + ttlMs })
          .onConflict((oc) =>
            oc
              .column('account')
              .doUpdateSet({ owner, expires_at: now + ttlMs })
              .where((eb) => eb.or([eb('sync_lease.owner', '=', owner), eb('sync_lease.expires_at', '<', now)])),
          )
          .execute();
        const row = await db.selectFrom('sync_lease').select('owner').where('account', '=', account).executeTakeFirst();
        return row?.owner === owner;
      },
      async release(owner) {
        await db.deleteFrom('sync_lease').where('account', '=', account).where('owner', '=', owner).execute();
      },
      releaseNow(owner) {
        // PostgreSQL cannot be reached synchronously: there the lease lapses on its own (sync.ts LEASE_TTL_MS),
        // unless a signal handler let the service release it first.
        if (!connection.sqlite) return;
        const { sql: text, parameters } = db
          .deleteFrom('sync_lease')
          .where('account', '=', account)
          .where('owner', '=', owner)
          .compile();
        try {
          connection.sqlite.prepare(text).run(...(parameters as unknown[]));
        } catch {
          // Closed already, or the disk is gone: the lease lapses on its own.
        }
      },
      get namePairsReady() {
        return namePairsReady;
      },
      async backfillNamePairs(budgetMs) {
        const until = performance.now() + budgetMs;
        while (!namePairsReady) {
          // Under the write lock, from reading the cursor to moving it: a record written meanwhile (with its
          // pairs, from its new contact) is never given pairs of the contact it had before.
          const next = await write(async (trx) => {
            const cursor = (await pairsCursor(trx)) ?? PAIRS_DONE;
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
            await trx.updateTable('index_meta').set({ value: moved }).where('key', '=', pairsKey).execute();
            return moved;
          });
          if (next === PAIRS_DONE) namePairsReady = true;
          else if (performance.now() >= until) break;
          else await yieldToRequests();
        }
        return namePairsReady;
      },
      async indexedCount() {
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
      async analyze() {
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
      async sameSecret() {
        const check = await db
          .selectFrom('index_meta')
          .select('value')
          .where('key', '=', 'key_check')
          .executeTakeFirst();
        return check?.value === keys.checkValue;
      },
      close: () => db.destroy(),
    };
    return store;
  } catch (error) {
    await db.destroy().catch(() => {});
    throw error;
  }
}
