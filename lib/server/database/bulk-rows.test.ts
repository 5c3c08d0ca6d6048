import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { realPostgresKinds, storeKinds } from '@/test/stores';
import type { AppDb } from './connect';
import { migratedDb } from './migrate';
import { arrayLiteral, insertRows, isAnyOf, jsonRows } from './bulk-rows';

/** node-postgres's own way to turn a parameter into text (what `arrayLiteral` must match). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (v: unknown) => unknown };

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

describe('a column of values as an array literal', () => {
  it('is the text node-postgres sends for the same array, awkward text, numbers, booleans and nulls included', () => {
    const values = [...AWKWARD, null, undefined, 0, -1.5, 2 ** 53, 12345678901234567890n, true, false];
    expect(arrayLiteral(values)).toBe(prepareValue(values.map((v) => v ?? null)));
    expect(arrayLiteral([])).toBe(prepareValue([]));
  });

  it('leaves what node-postgres turns into text its own way (a date, a buffer, an object) to it', () => {
    expect(arrayLiteral(['a', new Date(0)])).toBeNull();
    expect(arrayLiteral([Buffer.from('a')])).toBeNull();
    expect(arrayLiteral([{ a: 1 }])).toBeNull();
  });
});

describe('rows as one JSON text (SQLite)', () => {
  it("carries text, finite numbers and nulls, each row in the columns' order", () => {
    const rows = [
      { a: 'x', b: 1, c: null },
      { c: 'z', b: -2.5, a: '' },
    ];
    expect(JSON.parse(jsonRows(rows, ['a', 'b', 'c'])!)).toEqual([
      ['x', 1, null],
      ['', -2.5, 'z'],
    ]);
  });

  it('leaves to binding what JSON would not carry as binding does', () => {
    for (const value of [true, 1n, Buffer.from('a'), new Date(0), Number.NaN, Infinity, 'lone \ud800 surrogate'])
      expect(jsonRows([{ a: 'fine' }, { a: value }], ['a'])).toBeNull();
  });
});

const kinds = [...storeKinds(), ...realPostgresKinds(5645)];
const account = 7;

/** A migrated database of the kind's for each test (`current().db`, `current().dir`), emptied after it. */
function eachTestDatabase(kind: (typeof kinds)[number]) {
  const now = { dir: '', db: undefined as unknown as AppDb };
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    now.dir = mkdtempSync(join(tmpdir(), 'bulk-rows-'));
    now.db = await migratedDb(kind.target(now.dir));
  });
  afterEach(async () => {
    // A connection of the test's (PGlite) is the kind's to close; one opened here is closed here.
    if (!('db' in kind.target(now.dir))) await now.db.destroy();
    await kind.reset();
    rmSync(now.dir, { recursive: true, force: true });
  });
  return () => now;
}

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

describe.each(kinds)('many rows on $name', (kind) => {
  const current = eachTestDatabase(kind);
  let db: AppDb;
  beforeEach(() => {
    db = current().db;
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

  it('is one statement text whatever the count of rows (SQLite and PostgreSQL keep it compiled)', async () => {
    const text = async (n: number) =>
      db.transaction().execute(
        async (trx) =>
          (
            await insertRows(
              trx,
              'collection_details',
              Array.from({ length: n }, (_, i) => details(i, `r${n}`, null)),
            )
          ).compile().sql,
      );
    expect(await text(1)).toBe(await text(1_000));
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

describe.each(storeKinds().filter((kind) => kind.dialect === 'sqlite'))('rows as JSON on $name', (kind) => {
  const current = eachTestDatabase(kind);
  let db: AppDb;
  beforeEach(() => {
    db = current().db;
  });

  /** Writes `rows` through `insertRows` under `account` and bound value by value under `account + 1`. */
  async function bothWays(rows: ReturnType<typeof details>[]) {
    const sent = await db.transaction().execute(async (trx) => {
      const insert = await insertRows(trx, 'collection_details', rows);
      await insert.execute();
      return insert.compile().sql;
    });
    const bound = rows.map((r) => ({ ...r, account: account + 1 }));
    await db.transaction().execute((trx) => trx.insertInto('collection_details').values(bound).execute());
    const read = (of: number) =>
      db.selectFrom('collection_details').selectAll().where('account', '=', of).orderBy('line_item_count').execute();
    const [json, binding] = [await read(account), await read(account + 1)];
    return { sent, json, binding: binding.map((r) => ({ ...r, account })) };
  }

  it('writes through JSON exactly what binding writes: a NUL, numbers as text, awkward text', async () => {
    const { sent, json, binding } = await bothWays(
      ['nul \u0000 inside', '123', '-0', '1e21', ...AWKWARD].map((text, i) => details(i, text, null)),
    );
    expect(sent).toContain('jsonb_each');
    expect(json).toEqual(binding);
    expect(json[0]!.reference).toBe('nul \u0000 inside');
    expect(json[1]!.reference).toBe('123');
  });

  it('writes rows holding text JSON does not carry (a lone surrogate) by binding, as before', async () => {
    const { sent, json, binding } = await bothWays(
      ['lone \ud800 surrogate', 'plain'].map((text, i) => details(i, text, null)),
    );
    expect(sent).not.toContain('jsonb_each');
    expect(json).toEqual(binding);
  });
});

// Two writers at once need two connections: PGlite has one, and runs one transaction at a time.
describe.each(realPostgresKinds(5645))('two writers at once on $name', (kind) => {
  const current = eachTestDatabase(kind);

  it("fails no writer's first insert for another's failed transaction (the column types are read at open)", async () => {
    // A process of its own (fresh modules): no column type known yet, as after a start.
    vi.resetModules();
    const fresh = { ...(await import('./migrate')), ...(await import('./bulk-rows')) };
    const own = await fresh.migratedDb(kind.target(current().dir));
    try {
      let soundBegun!: () => void;
      const begun = new Promise<void>((resolve) => (soundBegun = resolve));
      let failedAsked!: () => void;
      const asked = new Promise<void>((resolve) => (failedAsked = resolve));
      // One writer's transaction has failed (division by zero); the other's is sound. The failed one asks to
      // insert first, and the sound one while that is under way.
      const failed = own.transaction().execute(async (trx) => {
        await sql`select 1 / 0`.execute(trx).catch(() => {});
        await begun;
        const insert = fresh.insertRows(trx, 'collection_details', [details(1, 't1', null)]);
        failedAsked();
        return (await insert).execute();
      });
      const sound = own.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        soundBegun();
        await asked;
        return (await fresh.insertRows(trx, 'collection_details', [details(2, 't2', null)])).execute();
      });
      await expect(failed).rejects.toMatchObject({ code: '25P02' });
      await sound;
      const kept = await current()
        .db.selectFrom('collection_details')
        .select('id')
        .where('account', '=', account)
        .execute();
      expect(kept.map((r) => r.id)).toEqual(['pay_2_t2']);
    } finally {
      await own.destroy();
    }
  });
});
