import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { postgresBinaries, startPostgres, type PostgresServer } from '@/scripts/postgres-server';
import { storeKinds, type StoreKind } from '@/test/stores';
import type { AppDb } from './connect';
import { migratedDb } from './migrate';
import { insertRows, isAnyOf } from './bulk-rows';

/** Text an array literal must carry whole: its own delimiters, quotes, escapes, the word NULL, other scripts. */
const AWKWARD = [
  '',
  'NULL',
  'null',
  'a,b',
  '{x}',
  '"quoted"',
  "it's",
  'back\\slash',
  'tab\there',
  'line\nbreak',
  ' padded ',
  'Ọlábísí Okafor',
  'محمد',
  '🙂 emoji',
  'x'.repeat(5_000),
  // A number as text stays text; a backslash before a u is not an escape.
  '123',
  'back\\u0000slash \\ud800',
];

/**
 * A real PostgreSQL server too: PGlite turns a parameter's array into text its own way, the application's
 * node-postgres another. CI installs PostgreSQL (.ci/run); a machine without it runs the two stores only.
 */
function realPostgres(port: number): Pick<StoreKind, 'name' | 'setup' | 'target' | 'reset' | 'teardown'> {
  let server: PostgresServer | null = null;
  return {
    name: 'PostgreSQL through node-postgres',
    async setup() {
      server = await startPostgres({ port });
    },
    target: () => ({ kind: 'postgres', url: server!.url, poolMax: 2, ssl: false }),
    async reset() {
      const client = new pg.Client({ connectionString: server!.url });
      await client.connect();
      await client.query('drop schema public cascade; create schema public');
      await client.end();
    },
    async teardown() {
      await server?.stop();
    },
  };
}

const kinds = [...storeKinds(), ...(postgresBinaries() || process.env.CI ? [realPostgres(5645)] : [])];

describe.each(kinds)('many rows on $name', (kind) => {
  let dir: string;
  let db: AppDb;
  const account = 7;
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulk-rows-'));
    db = await migratedDb(kind.target(dir));
  });
  afterEach(async () => {
    // A connection of the test's (PGlite) is the kind's to close; one opened here is closed here.
    if (!('db' in kind.target(dir))) await db.destroy();
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });

  const details = (i: number, text: string, completedAt: string | null) => ({
    account,
    id: `pay_${i}_${text.slice(0, 20)}`,
    reference: text,
    type: 'integrated',
    completed_at: completedAt,
    line_item_count: i,
    line_item_totals: JSON.stringify([{ currency: 'NGN', value: i }]),
    contact_sealed: text,
    methods: i % 2 ? null : text,
    follow_up: null,
    snapshot: text,
  });

  it('writes every value as given, nulls, awkward text and large numbers included, and upserts by key', async () => {
    const rows = AWKWARD.map((text, i) => details(i, text, i % 3 ? null : '2026-11-27T10:00:00.000Z'));
    await db.transaction().execute(async (trx) => (await insertRows(trx, 'collection_details', rows)).execute());
    const read = await db
      .selectFrom('collection_details')
      .selectAll()
      .where('account', '=', account)
      .orderBy('line_item_count')
      .execute();
    expect(read.map((r) => ({ ...r, line_item_count: Number(r.line_item_count) }))).toEqual(rows);

    const counts = [
      { grain: 'a' as const, period: '', currency: 'NGN', status: 'pending', n: 9_007_199_254_740 },
      { grain: 'd' as const, period: '2026-11-27', currency: 'EUR', status: 'completed', n: -3 },
    ].map(({ n, ...key }) => ({
      account,
      ...key,
      created_count: n,
      created_amount: n * 100,
      created_completed: 0,
      completed_count: 1,
      completed_amount: 0,
    }));
    for (let round = 0; round < 2; round++)
      await db.transaction().execute(async (trx) =>
        (await insertRows(trx, 'rollups', counts))
          .onConflict((oc) =>
            oc.columns(['account', 'grain', 'period', 'currency', 'status']).doUpdateSet((eb) => ({
              created_count: eb('rollups.created_count', '+', eb.ref('excluded.created_count')),
            })),
          )
          .execute(),
      );
    const summed = await db
      .selectFrom('rollups')
      .select(['grain', 'created_count', 'created_amount'])
      .where('account', '=', account)
      .orderBy('grain')
      .execute();
    expect(summed.map((r) => [r.grain, Number(r.created_count), Number(r.created_amount)])).toEqual([
      ['a', 18_014_398_509_480, 900_719_925_474_000],
      ['d', -6, -300],
    ]);
  });

  it('writes rows that do not all give the same columns as they are (a column left out takes its default)', async () => {
    const rows = [details(1, 'one', null), { ...details(2, 'two', null), methods: undefined, snapshot: undefined }];
    await db.transaction().execute(async (trx) => (await insertRows(trx, 'collection_details', rows)).execute());
    const read = await db
      .selectFrom('collection_details')
      .select(['reference', 'methods', 'snapshot'])
      .where('account', '=', account)
      .orderBy('reference')
      .execute();
    expect(read).toEqual([
      { reference: 'one', methods: null, snapshot: 'one' },
      { reference: 'two', methods: null, snapshot: null },
    ]);
  });

  it('refuses no rows with a message naming the table', async () => {
    await expect(
      db.transaction().execute(async (trx) => (await insertRows(trx, 'collection_details', [])).execute()),
    ).rejects.toThrow(/collection_details/);
  });

  it('matches exactly the values listed, however awkward, and none for an empty list', async () => {
    const rows = AWKWARD.map((text, i) => details(i, text, null));
    await db.transaction().execute(async (trx) => (await insertRows(trx, 'collection_details', rows)).execute());
    const wanted = rows.filter((_, i) => i % 2).map((r) => r.id);
    const found = await db
      .selectFrom('collection_details')
      .select('id')
      .where('account', '=', account)
      .where(isAnyOf(db, 'id', [...wanted, 'pay_not_there']))
      .execute();
    expect(found.map((r) => r.id).sort()).toEqual([...wanted].sort());
    const none = await db
      .selectFrom('collection_details')
      .select('id')
      .where(isAnyOf(db, 'id', []))
      .execute();
    expect(none).toEqual([]);
  });
});
