import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { collectionSchema, type Collection } from '@/lib/api/schemas';
import { sampleCollection } from '@/test/samples';
import { connect, type Connection, type DatabaseTarget } from '../database/connect';
import type { AppDatabase } from '../database/schema';
import { blindKeys } from './blind';
import { openIndexStore, type IndexStore } from './store';

const SECRET = 'writer-thread-test-secret-long-enough-0123456789';

let serial = 0;
const made = (): Collection => {
  serial++;
  const created = new Date(Date.UTC(2026, 0, 1) + serial * 60_000).toISOString();
  return collectionSchema.parse(
    sampleCollection({
      id: `pay_${serial}`,
      reference: `REF-${serial}`,
      createdAt: created,
      updatedAt: created,
      ...(serial % 3 === 0
        ? { status: 'completed', completedAt: new Date(Date.parse(created) + serial * 1000).toISOString() }
        : {}),
      contact: {
        id: `contact_${serial}`,
        firstName: `Ågot${serial}`,
        lastName: `Nwosu-${serial}`,
        email: `c.${serial}@example.org`,
        phone: `+234 803 ${String(serial).padStart(3, '0')} 7777`,
      },
    }),
  );
};

/** Everything a write leaves, table by table, in key order (sealed contacts aside: sealed anew each time). */
async function everything(db: Kysely<AppDatabase>) {
  const read = async (text: string) => (await sql.raw(text).execute(db)).rows;
  return {
    collections: await read(
      'select id, reference_key, status, amount_value, currency, created_at, updated_at, completed_at from collections order by id',
    ),
    details: await read(
      'select id, reference, type, completed_at, line_item_count, line_item_totals, methods, follow_up, snapshot from collection_details order by id',
    ),
    rollups: await read(
      'select * from rollups where created_count <> 0 or completed_count <> 0 or created_amount <> 0 order by grain, period, currency, status',
    ),
    durations: await read('select * from rollup_durations where count <> 0 order by grain, period, currency, bucket'),
    history: await read('select id, changes, status_from, status_to from collection_history order by id'),
    tokens: await read('select kind, token, id from contact_tokens order by kind, token, id'),
    staged: await read('select count(*) as n from contact_tokens_staged'),
    words: await read('select kind, token, word from name_words order by kind, token, word'),
    countries: await read("select value from index_meta where key like 'phone_countries%'"),
  };
}

describe("a first scan through SQLite's writer thread", () => {
  const dir = mkdtempSync(join(tmpdir(), 'writer-thread-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves exactly what a bulk write with its pre-read leaves: inserts sent ahead, records met before written again as changed', async () => {
    const open = (target: DatabaseTarget | Connection) =>
      openIndexStore({ target, keys: blindKeys(SECRET), account: 'acct_thread', clock: () => Date.UTC(2026, 5, 1) });
    // The application's connection (writes on a thread, statements sent ahead) against the caller's own.
    const threaded: IndexStore = await open(
      connect({ kind: 'sqlite', path: join(dir, 'threaded.sqlite') }, { writerThread: true }),
    );
    const plain: IndexStore = await open({ kind: 'sqlite', path: join(dir, 'plain.sqlite') });
    try {
      const all = Array.from({ length: 2_300 }, made).reverse();
      const [before, during] = ['2026-06-01T00:00:00.000Z', '2026-06-01T00:01:00.000Z'];
      // The polls wrote the head and the tail before the scan began.
      for (const store of [threaded, plain]) {
        await store.upsert(all.slice(0, 100), before);
        await store.upsert(all.slice(-100), before);
      }
      // Thirty of them changed since (status, amount, ten renamed).
      const scanned = all.map((c, i) =>
        i < 30
          ? {
              ...c,
              ...(i % 2 ? { status: 'completed' as const, completedAt: '2026-05-01T00:00:00.000Z' } : {}),
              amount: { ...c.amount, value: c.amount.value + 7 },
              contact: i < 10 ? { ...c.contact, firstName: `Zed${i}` } : c.contact,
            }
          : c,
      );
      for (let i = 0; i < scanned.length; i += 1_000) {
        await threaded.upsert(scanned.slice(i, i + 1_000), during, { bulk: true, stage: true });
        await plain.upsert(scanned.slice(i, i + 1_000), during, { bulk: true });
      }
      // A page that shifted: the same records once more.
      await threaded.upsert(scanned.slice(950, 1_050), during, { bulk: true, stage: true });
      await plain.upsert(scanned.slice(950, 1_050), during, { bulk: true });
      await threaded.settleTokens();

      const [a, b] = [await everything(threaded.db), await everything(plain.db)];
      expect(a.collections).toHaveLength(2_300);
      expect(a.history).toHaveLength(30);
      expect(a.staged).toEqual([{ n: 0 }]);
      for (const table of Object.keys(a) as (keyof typeof a)[]) expect(a[table], table).toEqual(b[table]);
    } finally {
      await threaded.close();
      await plain.close();
    }
  });
});
