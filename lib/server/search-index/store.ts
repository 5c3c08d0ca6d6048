import 'server-only';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql, type Transaction } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Collection } from '@/lib/api/schemas';
import { contactTokens, referenceKey, type BlindKeys } from './blind';
import { migrationProvider } from './migrations';
import type { IndexDatabase } from './schema';

/**
 * The index's store: one account's rows in a SQLite file (PostgreSQL later,
 * through the same Kysely queries), migrated at open. A secret that does not
 * match the one the rows were written with empties the store, so it is
 * rebuilt instead of answering with tokens nobody can match.
 */
export type IndexDb = Kysely<IndexDatabase>;
export type SyncState = IndexDatabase['sync_state'];

export type IndexStore = {
  db: IndexDb;
  account: string;
  keys: BlindKeys;
  /** Inserts or refreshes records as the upstream showed them at `seenAt`. */
  upsert(records: Collection[], seenAt: string): Promise<void>;
  /** Hides rows no scan or poll has seen since `before` (the start of a completed scan). */
  markGone(before: string): Promise<number>;
  state(): Promise<SyncState>;
  saveState(patch: Partial<Omit<SyncState, 'account'>>): Promise<void>;
  /** Takes or renews the sync lease for `ttlMs`; false while another live process holds it. */
  lease(owner: string, now: number, ttlMs: number): Promise<boolean>;
  /** Gives the lease up (a clean stop), so another process need not wait for it to lapse. */
  release(owner: string): Promise<void>;
  /** Rows visible to searches. */
  indexedCount(): Promise<number>;
  close(): Promise<void>;
  /** What happened at open: `rebuilt` when the secret changed. */
  opened: 'new' | 'existing' | 'rebuilt';
};

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

function lineItemTotals(items: Collection['metadata']) {
  const totals = new Map<string, number>();
  for (const item of items)
    totals.set(item.amount.currency, (totals.get(item.amount.currency) ?? 0) + item.amount.value * item.quantity);
  return JSON.stringify([...totals].map(([currency, value]) => ({ currency, value })));
}

export function toRow(keys: BlindKeys, account: string, c: Collection, seenAt: string) {
  const contact = {
    firstName: c.contact.firstName,
    lastName: c.contact.lastName,
    email: c.contact.email,
    phone: c.contact.phone,
  };
  return {
    account,
    id: c.id,
    reference: c.reference,
    reference_key: referenceKey(c.reference),
    type: c.type,
    status: c.status,
    amount_value: c.amount.value,
    currency: c.amount.currency,
    created_at: iso(c.createdAt)!,
    updated_at: iso(c.updatedAt)!,
    completed_at: iso(c.completedAt),
    line_item_count: c.metadata.length,
    line_item_totals: lineItemTotals(c.metadata),
    contact_sealed: keys.seal(contact, `${account}/${c.id}`),
    seen_at: seenAt,
    gone: 0,
  };
}

// SQLite allows 32,766 bound parameters per statement; rows go in slices well below it.
const ROWS_PER_STATEMENT = 500;
const chunks = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

async function writeRows(
  trx: Transaction<IndexDatabase>,
  keys: BlindKeys,
  account: string,
  records: Collection[],
  seenAt: string,
) {
  // The same id twice in one batch (a page that shifted): the last one wins.
  const unique = [...new Map(records.map((c) => [c.id, c])).values()];
  for (const slice of chunks(unique, ROWS_PER_STATEMENT / 20)) {
    await trx
      .insertInto('collections')
      .values(slice.map((c) => toRow(keys, account, c, seenAt)))
      .onConflict((oc) =>
        oc.columns(['account', 'id']).doUpdateSet((eb) => ({
          reference: eb.ref('excluded.reference'),
          reference_key: eb.ref('excluded.reference_key'),
          type: eb.ref('excluded.type'),
          status: eb.ref('excluded.status'),
          amount_value: eb.ref('excluded.amount_value'),
          currency: eb.ref('excluded.currency'),
          created_at: eb.ref('excluded.created_at'),
          updated_at: eb.ref('excluded.updated_at'),
          completed_at: eb.ref('excluded.completed_at'),
          line_item_count: eb.ref('excluded.line_item_count'),
          line_item_totals: eb.ref('excluded.line_item_totals'),
          contact_sealed: eb.ref('excluded.contact_sealed'),
          seen_at: eb.ref('excluded.seen_at'),
          gone: 0,
        })),
      )
      .execute();
    const ids = slice.map((c) => c.id);
    await trx.deleteFrom('contact_tokens').where('account', '=', account).where('id', 'in', ids).execute();
    const tokens = slice.flatMap((c) => contactTokens(keys, c.contact).map((t) => ({ account, id: c.id, ...t })));
    for (const part of chunks(tokens, ROWS_PER_STATEMENT)) {
      await trx
        .insertInto('contact_tokens')
        .values(part)
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
}

export async function openIndexStore(options: {
  path: string;
  keys: BlindKeys;
  account: string;
  onRebuild?: () => void;
}): Promise<IndexStore> {
  const { keys, account } = options;
  mkdirSync(dirname(options.path), { recursive: true });
  const sqlite = new Database(options.path);
  // WAL: readers never wait for the sync's writes; a second process on the same file waits its turn.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('cache_size = -65536');
  const db = new Kysely<IndexDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });

  try {
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
    if (error) throw error;

    const check = await db.selectFrom('index_meta').select('value').where('key', '=', 'key_check').executeTakeFirst();
    let opened: IndexStore['opened'] = check ? 'existing' : 'new';
    if (check && check.value !== keys.checkValue) {
      // Tokens and ciphertext of another secret are useless: start again rather than answer wrong.
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('contact_tokens').execute();
        await trx.deleteFrom('collections').execute();
        await trx.deleteFrom('sync_state').execute();
      });
      opened = 'rebuilt';
      options.onRebuild?.();
    }
    await db
      .insertInto('index_meta')
      .values({ key: 'key_check', value: keys.checkValue })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: keys.checkValue }))
      .execute();
    await db
      .insertInto('sync_state')
      .values({ account, scan_page: 1, scan_missed: '[]', scans_completed: 0 })
      .onConflict((oc) => oc.column('account').doNothing())
      .execute();

    return {
      db,
      account,
      keys,
      opened,
      upsert: (records, seenAt) =>
        records.length
          ? db.transaction().execute((trx) => writeRows(trx, keys, account, records, seenAt))
          : Promise.resolve(),
      async markGone(before) {
        const result = await db
          .updateTable('collections')
          .set({ gone: 1 })
          .where('account', '=', account)
          .where('gone', '=', 0)
          .where('seen_at', '<', before)
          .executeTakeFirst();
        return Number(result.numUpdatedRows);
      },
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
      async indexedCount() {
        const row = await db
          .selectFrom('collections')
          .select(sql<number>`count(*)`.as('n'))
          .where('account', '=', account)
          .where('gone', '=', 0)
          .executeTakeFirstOrThrow();
        return Number(row.n);
      },
      close: () => db.destroy(),
    };
  } catch (error) {
    await db.destroy().catch(() => {});
    throw error;
  }
}
