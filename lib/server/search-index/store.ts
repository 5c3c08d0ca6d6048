import 'server-only';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql, type Transaction } from 'kysely';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Collection } from '@/lib/api/schemas';
import { lineItemTotals } from '@/lib/format/money';
import { contactTokens, referenceKey, sealAad, type BlindKeys } from './blind';
import { migrationProvider } from './migrations';
import { applyDelta, pruneRollups, rebuildRollups, RollupDelta, type RollupRecord } from './rollups';
import type { IndexDatabase } from './schema';

/**
 * The index's store: one account's rows in a SQLite file (PostgreSQL later,
 * through the same Kysely queries), migrated at open. A secret that does not
 * match the one the rows were written with empties the store, so it is
 * rebuilt instead of answering with tokens nobody can match; a file whose
 * schema this version cannot migrate is set aside and started again (the
 * index is derived data: the upstream has it all).
 */
export type IndexDb = Kysely<IndexDatabase>;
export type SyncState = IndexDatabase['sync_state'];

export type IndexStore = {
  db: IndexDb;
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
  /** Rows visible to searches. */
  indexedCount(): Promise<number>;
  /** Refreshes the query planner's statistics (after a full scan: the shape of the data is known). */
  analyze(): Promise<void>;
  close(): Promise<void>;
  /** What happened at open: `rebuilt` when the secret changed or the file could not be migrated. */
  opened: 'new' | 'existing' | 'rebuilt';
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

/** The SQLite handles of open stores, for a synchronous goodbye when the process exits. */
const handles = new WeakMap<IndexDb, Database.Database>();

function openSqlite(path: string): IndexDb {
  const sqlite = new Database(path);
  // WAL: readers never wait for the sync's writes; a second process on the same file waits its turn.
  sqlite.pragma('journal_mode = WAL');
  // The index is derived data: a crash of the process loses nothing in WAL mode, and the one thing
  // synchronous=OFF risks (a damaged file after a power cut) is handled by setting it aside and
  // rebuilding. Without the fsyncs, and with checkpoints every ~100 MB of WAL instead of 4 MB, a bulk
  // sync writes 1.8x as many rows a second (measured: 2,778 -> 4,995 rows/s at 200,000 rows).
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('wal_autocheckpoint = 25000');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('cache_size = -131072');
  const db = new Kysely<IndexDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
  handles.set(db, sqlite);
  return db;
}

/**
 * The index's database with no index in it: for the audit log when the index is turned off (INDEX=off,
 * or no INDEX_SECRET), so who saw what is kept either way. Never open while an index store is.
 */
export async function openDatabaseOnly(path: string): Promise<IndexDb> {
  mkdirSync(dirname(path), { recursive: true });
  return (await migrated(path)).db;
}

/** Migrates; a file this version cannot migrate (another schema, a half-applied one) is set aside. */
async function migrated(path: string): Promise<{ db: IndexDb; setAside: boolean }> {
  let db = openSqlite(path);
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (!error) return { db, setAside: false };
  await db.destroy();
  const aside = `${path}.incompatible-${Date.now()}`;
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
  db = openSqlite(path);
  const retry = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (retry.error) {
    await db.destroy();
    throw retry.error;
  }
  return { db, setAside: true };
}

export async function openIndexStore(options: {
  path: string;
  keys: BlindKeys;
  /** The account's non-reversible key (blind.ts `accountKey`). */
  account: string;
  onRebuild?: (why: 'secret' | 'schema') => void;
}): Promise<IndexStore> {
  const { keys, account: accountKey } = options;
  mkdirSync(dirname(options.path), { recursive: true });
  const { db, setAside } = await migrated(options.path);

  try {
    const check = await db.selectFrom('index_meta').select('value').where('key', '=', 'key_check').executeTakeFirst();
    let opened: IndexStore['opened'] = setAside ? 'rebuilt' : check ? 'existing' : 'new';
    if (setAside) options.onRebuild?.('schema');
    if (check && check.value !== keys.checkValue) {
      // Tokens and ciphertext of another secret are useless: start again rather than answer wrong.
      await db.transaction().execute(async (trx) => {
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
      });
      opened = 'rebuilt';
      options.onRebuild?.('secret');
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
      await rebuildRollups(db, account);
      await db
        .insertInto('index_meta')
        .values({ key: 'rollups', value: ROLLUPS_VERSION })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: ROLLUPS_VERSION }))
        .execute();
    }

    const store: IndexStore = {
      db,
      account,
      accountKey,
      keys,
      opened,
      async upsert(records, seenAt, options = {}) {
        // The same id twice in one batch (a page that shifted): the last one wins.
        const unique = [...new Map(records.map((c) => [c.id, c])).values()];
        if (!unique.length) return;
        // Most records a rescan or a live read meets are as the index has them: those only get
        // `seen_at` (one cheap statement); the rest are sealed, tokenised and written.
        const stored = await db
          .selectFrom('collections')
          .select(['id', 'status', 'amount_value', 'currency', 'updated_at', 'reference_key', 'created_at'])
          .where('account', '=', account)
          .where(
            'id',
            'in',
            unique.map((c) => c.id),
          )
          .execute();
        const known = new Map(stored.map((r) => [r.id, r]));
        const same = (c: Collection) => {
          const r = known.get(c.id);
          return (
            r !== undefined &&
            r.status === c.status &&
            Number(r.amount_value) === c.amount.value &&
            r.currency === c.amount.currency &&
            r.updated_at === iso(c.updatedAt) &&
            r.reference_key === referenceKey(c.reference)
          );
        };
        const unchanged = unique.filter(same).map((c) => c.id);
        if (unchanged.length) {
          await db
            .updateTable('collections')
            .set({ seen_at: seenAt })
            .where('account', '=', account)
            .where('id', 'in', unchanged)
            .execute();
        }
        const changed = unique.filter((c) => !same(c));
        const changedKnown = changed.filter((c) => known.has(c.id)).map((c) => c.id);
        const previous = new Map(
          changedKnown.length
            ? (
                await db
                  .selectFrom('collection_details')
                  .select(['id', 'contact_sealed', 'completed_at'])
                  .where('account', '=', account)
                  .where('id', 'in', changedKnown)
                  .execute()
              ).map((d) => {
                const old = known.get(d.id)!;
                const counted = { ...old, amount_value: Number(old.amount_value), completed_at: d.completed_at };
                return [d.id, { sealed: d.contact_sealed, counted }] as const;
              })
            : [],
        );
        const size = options.bulk ? RECORDS_PER_BULK_SLICE : RECORDS_PER_SLICE;
        for (const [i, slice] of chunks(changed, size).entries()) {
          if (i || unchanged.length) await yieldToRequests();
          const mine = new Map(slice.filter((c) => previous.has(c.id)).map((c) => [c.id, previous.get(c.id)!]));
          await db.transaction().execute((trx) => writeSlice(trx, store, slice, seenAt, mine));
        }
      },
      removeUnseen: (before) =>
        db.transaction().execute(async (trx) => {
          const unseen = trx
            .selectFrom('collections')
            .select('id')
            .where('account', '=', account)
            .where('seen_at', '<', before);
          const gone = await trx
            .selectFrom('collection_details as d')
            .innerJoin('collections as c', (join) =>
              join.onRef('c.account', '=', 'd.account').onRef('c.id', '=', 'd.id'),
            )
            .select([
              'd.id',
              'd.contact_sealed',
              'd.completed_at',
              'c.created_at',
              'c.currency',
              'c.status',
              'c.amount_value',
            ])
            .where('d.account', '=', account)
            .where('d.id', 'in', unseen)
            .execute();
          const delta = new RollupDelta();
          for (const g of gone) delta.add(g, -1);
          await applyDelta(trx, account, delta);
          for (const part of chunks(gone, 500)) {
            await deleteTokens(trx, store, new Map(part.map((g) => [g.id, g.contact_sealed])));
          }
          await trx.deleteFrom('collection_details').where('account', '=', account).where('id', 'in', unseen).execute();
          const result = await trx
            .deleteFrom('collections')
            .where('account', '=', account)
            .where('seen_at', '<', before)
            .executeTakeFirst();
          return Number(result.numDeletedRows);
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
        const { sql: text, parameters } = db
          .deleteFrom('sync_lease')
          .where('account', '=', account)
          .where('owner', '=', owner)
          .compile();
        try {
          handles
            .get(db)
            ?.prepare(text)
            .run(...(parameters as unknown[]));
        } catch {
          // Closed already, or the disk is gone: the lease lapses on its own in 30 s.
        }
      },
      async indexedCount() {
        const row = await db
          .selectFrom('collections')
          .select(sql<number>`count(*)`.as('n'))
          .where('account', '=', account)
          .executeTakeFirstOrThrow();
        return Number(row.n);
      },
      async analyze() {
        await pruneRollups(db, account);
        // SQLite's own advice for long-lived connections: it analyzes only what changed enough.
        await sql`PRAGMA optimize=0x10002`.execute(db);
      },
      close: () => db.destroy(),
    };
    return store;
  } catch (error) {
    await db.destroy().catch(() => {});
    throw error;
  }
}
