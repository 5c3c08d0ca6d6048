import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexTables, numberedCollection } from '@/test/index-tables';
import { connect, type Connection, type DatabaseTarget } from '../../database/connect';
import { blindKeys } from '../shared/blind';
import { openIndexStore, type IndexStore } from '../store';

const SECRET = 'writer-thread-test-secret-long-enough-0123456789';

let serial = 0;
const made = () => numberedCollection(++serial);

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

      const [a, b] = [await indexTables(threaded.db), await indexTables(plain.db)];
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
