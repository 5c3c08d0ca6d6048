import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collectionSchema, type Collection } from '@/lib/api/schemas';
import { defaults, filterSchema } from '@/lib/api/list-state';
import { sampleCollection } from '@/test/samples';
import { storeKinds } from '@/test/stores';
import { blindKeys } from './shared/blind';
import { storedPhone } from './shared/phones';
import { migrationProvider } from '../database/migrations';
import * as migration from '../database/migrations/0023-name-counts';
import { createQueries, trigramQuery } from './read';
import { openIndexStore, type IndexStore } from './store';
import { statusFigures } from './write/maintenance-counts';
import { lockIndexWrites } from '../database/dialect';
import { postgresBinaries, startPostgres } from '@/scripts/postgres-server';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const ACCOUNT = 'acct_test';
const noFilters = defaults(filterSchema);

let dir: string;
let store: IndexStore;

const collection = (id: string, overrides: Record<string, unknown> = {}): Collection =>
  collectionSchema.parse(sampleCollection({ id, ...overrides }));

const contact = (firstName: string, lastName: string, email: string, phone: string) => ({
  id: `contact_${firstName}`,
  firstName,
  lastName,
  email,
  phone,
});

const RECORDS = [
  collection('pay_1', {
    reference: 'INV-2026-00001',
    contact: contact('Zoë', 'Okafor', 'Zoe.Okafor@Example.com', '+234 801 234 5678'),
    createdAt: '2026-11-01T10:00:00.000Z',
    amount: { value: 5000, currency: 'NGN' },
  }),
  collection('pay_2', {
    reference: 'ORD-AB12CD34',
    status: 'completed',
    contact: contact('Søren', 'Müller', 'soren.muller@example.com', '+49 151 555 0199'),
    createdAt: '2026-11-02T10:00:00.000Z',
    amount: { value: 70, currency: 'EUR' },
  }),
  collection('pay_3', {
    reference: 'inv-2026-00002',
    contact: contact('Adaeze', 'Okafor', 'adaeze@example.com', '+1 415 555 5678'),
    createdAt: '2026-11-03T10:00:00.000Z',
    amount: { value: 900, currency: 'NGN' },
  }),
  collection('pay_4', {
    reference: '100%_sure\\x',
    contact: contact('Grace', 'Hopper', 'grace@example.com', '+44 7700 900 123'),
    createdAt: '2026-11-04T10:00:00.000Z',
  }),
];

describe.each(storeKinds())('on $name', (kind) => {
  // What only a file has (a full disk, a file set aside, a synchronous goodbye) is not asked of PostgreSQL.
  const onSqlite = kind.dialect === 'sqlite' ? it : () => {};
  const onPostgres = kind.dialect === 'postgres' ? it : () => {};
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'index-test-'));
    store = await openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account: ACCOUNT });
    await store.upsert(RECORDS, '2026-11-20T00:00:00.000Z');
  });
  afterEach(async () => {
    await store.close();
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = (page: { data: { id: string }[] }) => page.data.map((r) => r.id);

  /**
   * A table moved to another shape (migrations 0025, 0027): its planner statistics taken again (they go with
   * the table they replace), and its key still its own (a second copy of a row is refused).
   */
  async function expectStatsAndKey(table: 'collections' | 'collection_details', id: string) {
    const stats = await sql<{ n: number }>`select count(*) as n from sqlite_stat1 where tbl = ${table}`.execute(
      store.db,
    );
    expect(Number(stats.rows[0]!.n)).toBeGreaterThan(0);
    await expect(
      sql`insert into ${sql.table(table)} select * from ${sql.table(table)} where id = ${id}`.execute(store.db),
    ).rejects.toThrow(/UNIQUE/);
  }

  /** A collection of a contact named `first last`, created on day `day` of October 2026. */
  const named = (id: string, first: string, last: string, day: number) =>
    collection(id, {
      reference: `NAME-${id}`,
      contact: contact(first, last, `${id}@example.org`, '+234 803 000 0000'),
      createdAt: `2026-10-${String(day).padStart(2, '0')}T10:00:00.000Z`,
    });

  /**
   * One page of a search walked in order (`walkFrom` 1), walked with a short reach (its first 12 rows of the
   * order at most: a page it cannot fill there is looked up) and looked up (`walkFrom` ∞): the same rows and
   * count.
   */
  async function walkedAsLooked(q: string, filters: typeof noFilters, pageNumber: number, limit: number) {
    const [walked, short, looked, unread, merged, large, few, fewShort, fewWithSizes, fewAfterLarge, probed, hashed] =
      await Promise.all([
        createQueries(store, { walkFrom: 1 }).search(q, filters, pageNumber, limit),
        createQueries(store, { walkFrom: 1, walkReadsAtMost: 12 }).search(q, filters, pageNumber, limit),
        createQueries(store, { walkFrom: Infinity, walkFew: false }).search(q, filters, pageNumber, limit),
        // A fragment's matches read by each statement, not once by the plan.
        createQueries(store, { walkFrom: Infinity, fragmentInlineAtMost: 0 }).search(q, filters, pageNumber, limit),
        // Two words' forms merged as sets, not looked up as pairs (too many forms to pair).
        createQueries(store, { walkFrom: Infinity, pairsAtMost: 0 }).search(q, filters, pageNumber, limit),
        // A single word's one large form counted by its key range, the other matches grouped (`rankSizes`).
        createQueries(store, { walkFrom: 1, largeForm: 2 }).search(q, filters, pageNumber, limit),
        // A search's few matches read as ids, then each rank walked for them (`fewMatches`), with the
        // walk's usual reach and with a short one (a page it cannot fill there is looked up by id).
        createQueries(store, { walkFrom: Infinity, walkFew: true }).search(q, filters, pageNumber, limit),
        createQueries(store, { walkFrom: Infinity, walkFew: true, walkReadsAtMost: 12 }).search(
          q,
          filters,
          pageNumber,
          limit,
        ),
        // The few matches' ids read with the ranks' sizes, as they are below the threshold (`rankSizes`), and
        // read on their own after a large form's count.
        createQueries(store, { walkFrom: 1_000_000 }).search(q, filters, pageNumber, limit),
        createQueries(store, { walkFrom: Infinity, largeForm: 2 }).search(q, filters, pageNumber, limit),
        // A walk's rows (and the large form's other matches) asked for their tokens one by one, and the same
        // left to the planner, which may hash the tokens' ids first (`probedPerRow`).
        createQueries(store, { walkFrom: 1, largeForm: 2, probeCostInIds: 0 }).search(q, filters, pageNumber, limit),
        createQueries(store, { walkFrom: 1, largeForm: 2, probeCostInIds: Infinity }).search(
          q,
          filters,
          pageNumber,
          limit,
        ),
      ]);
    const seen = (page: typeof walked) => ({
      q,
      sort: filters.sort,
      pageNumber,
      limit,
      ids: ids(page),
      count: page.count,
    });
    expect(seen(walked)).toEqual(seen(looked));
    expect(seen(short)).toEqual(seen(looked));
    expect(seen(unread)).toEqual(seen(looked));
    expect(seen(merged)).toEqual(seen(looked));
    expect(seen(large)).toEqual(seen(looked));
    expect(seen(few)).toEqual(seen(looked));
    expect(seen(fewShort)).toEqual(seen(looked));
    expect(seen(fewWithSizes)).toEqual(seen(looked));
    expect(seen(fewAfterLarge)).toEqual(seen(looked));
    expect(seen(probed)).toEqual(seen(looked));
    expect(seen(hashed)).toEqual(seen(looked));
    return [walked, looked] as const;
  }

  describe('search', () => {
    const search = (q: string) => createQueries(store).search(q, noFilters, 1, 10);

    it.each([
      ['an e-mail, any case and spacing', '  zoe.okafor@EXAMPLE.com ', ['pay_1'], 'email'],
      ['a phone with spaces and +', '+234 801 234 5678', ['pay_1'], 'phone'],
      ['a phone without + or spaces', '2348012345678', ['pay_1'], 'phone'],
      ['the last four digits', '5678', ['pay_3', 'pay_1'], 'phoneLast4'],
      ['a reference prefix, any case', 'INV-2026', ['pay_3', 'pay_1'], 'reference'],
      ['a name token without its accent', 'soren', ['pay_2'], 'name'],
      ['name tokens in any order', 'okafor zoe', ['pay_1'], 'name'],
      ['a shared last name', 'OKAFOR', ['pay_3', 'pay_1'], 'name'],
      ['an id', 'pay_2', ['pay_2'], 'id'],
      // Search as customers speak: numbers as people write them, the e-mail's local part.
      ['a national number with its trunk prefix', '0801 234 5678', ['pay_1'], 'phoneNational'],
      ['a national number without its trunk prefix', '801 234 5678', ['pay_1'], 'phoneNational'],
      ['a national number with its trunk prefix, without spaces', '08012345678', ['pay_1'], 'phoneNational'],
      ['a number with (0) after its country code', '+234 (0) 801 234 5678', ['pay_1'], 'phone'],
      ['a number with its country code in brackets', '(+234) 801-234-5678', ['pay_1'], 'phone'],
      ['a number dialled with 00', '00234 801 234 5678', ['pay_1'], 'phone'],
      ['a US number as written in the US', '(415) 555-5678', ['pay_3'], 'phoneNational'],
      ['a UK number as written in the UK', '07700 900123', ['pay_4'], 'phoneNational'],
      ['a German number with dots', '0151.555.0199', ['pay_2'], 'phoneNational'],
      ["the e-mail's local part", 'zoe.okafor', ['pay_1'], 'emailLocal'],
      ["the e-mail's local part with the wrong domain", 'zoe.okafor@example.org', ['pay_1'], 'emailLocal'],
      ["a word of the e-mail's local part", 'muller', ['pay_2'], 'emailLocal'],
      ['a fragment from the end of a reference', '00001', ['pay_1'], 'referencePart'],
      ['a fragment from the middle of a reference, any case', 'b12C', ['pay_2'], 'referencePart'],
      ['a fragment of three characters', '%_s', ['pay_4'], 'referencePart'],
    ])('finds by %s', async (_, q, expected, field) => {
      const page = await search(q);
      expect(ids(page)).toEqual(expected);
      expect(page.count).toBe(expected.length);
      for (const hit of page.data) expect(hit.matched).toContain(field);
    });

    it('reads an address of another domain by its words only when they hold no fewer letters than digits (a +tag aside)', async () => {
      // "zoe.20261127" says a number more than a word: by "zoe" alone it would list every zoe.… address (an
      // e2e search of one person's new address found another's, whose tag was all digits).
      const found = { 'zoe.okafor.2026@example.org': ['pay_1'], 'zoe+20261127@example.org': ['pay_1'] };
      for (const q of ['zoe.20261127@example.org', 'okafor_19870412@example.org', ...Object.keys(found)])
        expect({ q, ids: ids(await search(q)) }).toEqual({ q, ids: found[q as keyof typeof found] ?? [] });
    });

    it("keeps an address's words apart from the name's only where they differ, and a name's forms once a word", async () => {
      const kemi = (id: string, email: string) =>
        collection(id, { contact: contact('Kemi', 'Bello', email, '+234 802 000 1111') });
      await store.upsert(
        [kemi('pay_k1', 'kbello.pay@example.com'), kemi('pay_k2', 'kemi.bello@example.com')],
        '2026-11-20T00:00:00.000Z',
      );
      const rows = async (table: 'contact_tokens' | 'name_words', kind: string) =>
        Number(
          (
            await store.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('kind', '=', kind)
              .executeTakeFirstOrThrow()
          ).n,
        );
      // kbello and pay are the address's own words; kemi and bello are the name's, kept as name tokens only.
      expect(
        await store.db
          .selectFrom('contact_tokens')
          .select(['id', (eb) => eb.fn.countAll<number>().as('n')])
          .where('kind', '=', 'emailword')
          .where('id', 'like', 'pay_k%')
          .groupBy('id')
          .execute(),
      ).toEqual([{ id: 'pay_k1', n: 2 }]);
      expect((await search('kbello')).data.map((h) => [h.id, h.matched])).toEqual([['pay_k1', ['emailLocal']]]);
      expect(ids(await search('kbello.pay@elsewhere.example'))).toEqual(['pay_k1']);
      expect((await search('kemi.bello')).data.map((h) => [h.id, h.matched])).toEqual([
        ['pay_k2', ['name', 'emailLocal']],
        ['pay_k1', ['name']],
      ]);
      // Two more Kemi Bellos add no vocabulary: a word's forms are written once.
      const before = [await rows('name_words', 'nameprefix'), await rows('name_words', 'namesound')];
      expect(before[0]).toBeGreaterThan(0);
      await store.upsert(
        [kemi('pay_k3', 'k3@example.com'), kemi('pay_k4', 'k4@example.com')],
        '2026-11-20T00:00:00.000Z',
      );
      expect([await rows('name_words', 'nameprefix'), await rows('name_words', 'namesound')]).toEqual(before);
      expect(ids(await search('Bel'))).toEqual(expect.arrayContaining(['pay_k1', 'pay_k2', 'pay_k3', 'pay_k4']));
    });

    it('finds a record only when it has every name token typed, however many and however often', async () => {
      await store.upsert(
        [
          collection('pay_5', {
            reference: 'ORD-NAMES',
            contact: contact('Mary Ann', 'Okafor-Smith', 'mary@example.com', '+234 802 000 0001'),
            createdAt: '2026-11-05T10:00:00.000Z',
          }),
        ],
        '2026-11-20T00:00:00.000Z',
      );
      expect(ids(await search('smith OKAFOR mary ann'))).toEqual(['pay_5']);
      expect(ids(await search('okafor zoe okafor'))).toEqual(['pay_1']);
      expect(ids(await search('okafor'))).toEqual(['pay_5', 'pay_3', 'pay_1']);
      expect((await search('mary ann zoe')).count).toBe(0);
      expect((await search('okafor hopper')).count).toBe(0);
    });

    it('finds a name of more words than get pair tokens by any of its words together', async () => {
      await store.upsert(
        [
          collection('pay_6', {
            contact: contact(
              'Ana Maria Luísa Teresa',
              'de Jesus da Silva Ferreira',
              'ana@example.com',
              '+351 91 000 0001',
            ),
            createdAt: '2026-11-06T10:00:00.000Z',
          }),
        ],
        '2026-11-20T00:00:00.000Z',
      );
      // Nine words would be 36 pairs: the record has one marker instead.
      const pairs = await store.db
        .selectFrom('contact_tokens')
        .select('token')
        .where('kind', '=', 'name2')
        .where('id', '=', 'pay_6')
        .execute();
      expect(pairs).toHaveLength(1);
      expect(ids(await search('Ferreira Ana'))).toEqual(['pay_6']);
      expect(ids(await search('teresa JESUS silva'))).toEqual(['pay_6']);
      expect((await search('ferreira okafor')).count).toBe(0);
      expect((await search('ferreira')).count).toBe(1);
    });

    it('gives records written before name pairs existed their pairs, from their current contact, and finds them meanwhile', async () => {
      // As the previous version left its index: no pair tokens, and no mark of them.
      await store.db.deleteFrom('contact_tokens').where('kind', '=', 'name2').execute();
      await store.db.deleteFrom('index_meta').where('key', 'like', 'name_pairs:%').execute();
      await store.close();
      store = await openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account: ACCOUNT });
      // Another replica's store, open on the same rows: it learns when the backfill is done, not before.
      const replica = await openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account: ACCOUNT });
      expect(store.namePairsReady).toBe(false);
      expect(ids(await search('okafor zoe'))).toEqual(['pay_1']);
      // Renamed before the backfill reaches it: its pairs are those of the new name, written with it.
      await store.upsert(
        [
          {
            ...RECORDS[0]!,
            contact: { ...RECORDS[0]!.contact, lastName: 'Adeyemi' },
            updatedAt: '2026-11-21T00:00:00.000Z',
          },
        ],
        '2026-11-21T00:00:00.000Z',
      );
      await replica.refreshBackfills();
      expect(replica.namePairsReady).toBe(false);
      expect(await store.backfillTokens(5_000)).toBe(true);
      expect(store.namePairsReady).toBe(true);
      await replica.refreshBackfills();
      expect([replica.namePairsReady, replica.tokensReady]).toEqual([true, true]);
      await replica.close();
      // The old name's pair is gone; the words of the e-mail (still zoe.okafor@) find it as that, not as a name.
      expect((await search('okafor zoe')).data.map((hit) => hit.matched)).toEqual([['emailLocal']]);
      expect(ids(await search('zoe adeyemi'))).toEqual(['pay_1']);
      expect(ids(await search('Okafor Adaeze'))).toEqual(['pay_3']);
      expect(ids(await search('grace hopper'))).toEqual(['pay_4']);
      const pairs = await store.db
        .selectFrom('contact_tokens')
        .select(['id', 'token'])
        .where('kind', '=', 'name2')
        .orderBy('id')
        .execute();
      // One pair a two-word name, once each (pay_1's was written by the upsert and not again by the backfill).
      expect(pairs.map((p) => p.id)).toEqual(['pay_1', 'pay_2', 'pay_3', 'pay_4']);
      // Opened again, the index knows its records have their pairs.
      await store.close();
      store = await openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account: ACCOUNT });
      expect(store.namePairsReady).toBe(true);
    });

    // Eight ways of paging each query in five orders and several pages: ~20 s on PostgreSQL on a busy machine.
    it('pages a search that matches many rows the same whether it walks the rows in order or looks each match up', async () => {
      await store.upsert(
        Array.from({ length: 30 }, (_, i) =>
          collection(`pay_w${String(i).padStart(2, '0')}`, {
            reference: `WALK-${i}`,
            contact: contact(
              i % 3 ? 'Amaka' : 'Chidi',
              i % 2 ? 'An' : 'Okafor',
              `w${i}@example.com`,
              `+234 803 000 ${1000 + i}`,
            ),
            // Ties on the date and the amount: the order must still be the same, and every page distinct.
            createdAt: `2026-10-${String(1 + (i % 7)).padStart(2, '0')}T10:00:00.000Z`,
            amount: { value: 100 * (i % 4), currency: 'NGN' },
          }),
        ),
        '2026-11-20T00:00:00.000Z',
      );
      const walking = createQueries(store, { walkFrom: 1 });
      const looking = createQueries(store, { walkFrom: Infinity, walkFew: false });
      for (const q of [
        'amaka',
        'okafor',
        'amaka an',
        'an amaka chidi',
        'walk-1',
        '1005',
        'w3@example.com',
        'pay_w07',
        // Ranked: a name's start, a sound-alike, both with an exact word.
        'amak',
        'okafur',
        'amaka okafur',
        'chid okafor',
      ])
        for (const sort of ['-createdAt', 'createdAt', 'amount', '-amount', '-updatedAt'] as const)
          for (const [pageNumber, limit] of [
            [1, 4],
            [2, 4],
            [5, 4],
            [1, 100],
            [9, 10],
          ] as const) {
            const [walked, looked] = await walkedAsLooked(q, { ...noFilters, sort }, pageNumber, limit);
            expect(walked.data.map((h) => h.matched)).toEqual(looked.data.map((h) => h.matched));
          }
      // With a filter the matches are looked up (their count needs every row): the same answer either way.
      const pending = { ...noFilters, status: ['pending'] };
      expect(ids(await walking.search('amaka', pending, 1, 50))).toEqual(
        ids(await looking.search('amaka', pending, 1, 50)),
      );
      expect((await walking.search('amaka', noFilters, 1, 100)).count).toBe(20);
    }, 60_000);

    it('pages a reference prefix of the oldest rows, which no walk of the newest reaches, the same as looking each match up', async () => {
      await store.upsert(
        Array.from({ length: 40 }, (_, i) =>
          collection(`pay_o${String(i).padStart(2, '0')}`, {
            // The twelve oldest are OLD-…; one newer record's contact is named Old (the name's arm beside the reference's).
            reference: i < 12 ? `OLD-${i}` : `NEW-${i}`,
            contact: contact('Ada', i === 30 ? 'Old' : 'Eze', `o${i}@example.com`, `+234 803 100 ${1000 + i}`),
            // Ties on the date: pages must still follow the ids.
            createdAt: `2026-${i < 12 ? '01' : '09'}-${String(1 + (i % 5)).padStart(2, '0')}T10:00:00.000Z`,
          }),
        ),
        '2026-11-20T00:00:00.000Z',
      );
      // Exact matches only (forgiving kinds join below `forgiveBelow`), and a walk that reads 4 rows at most.
      const led = createQueries(store, { walkFrom: 1, walkReadsAtMost: 4, forgiveBelow: 1 });
      const looked = createQueries(store, { walkFrom: Infinity, walkFew: false, forgiveBelow: 1 });
      for (const q of ['OLD', 'old-1'])
        for (const sort of ['-createdAt', 'createdAt', 'amount'] as const)
          for (const [pageNumber, limit] of [
            [1, 5],
            [2, 5],
            [3, 5],
            [4, 5],
            [1, 50],
          ] as const) {
            const filters = { ...noFilters, sort };
            const [a, b] = await Promise.all([
              led.search(q, filters, pageNumber, limit),
              looked.search(q, filters, pageNumber, limit),
            ]);
            expect({ q, sort, pageNumber, ids: ids(a), count: a.count }).toEqual({
              q,
              sort,
              pageNumber,
              ids: ids(b),
              count: b.count,
            });
          }
      expect((await looked.search('OLD', noFilters, 1, 50)).count).toBe(13);
    });

    it('forgives a name: its start, a slip of a letter, another spelling; the exact word first, then a start, then a sound-alike', async () => {
      await store.upsert(
        [
          named('pay_n1', 'Grace', 'Abdullahi', 1),
          named('pay_n2', 'Musa', 'Abdulrahman', 2),
          named('pay_n3', 'Amara', 'Eze', 3),
          named('pay_n4', 'Amarachi', 'Obi', 4),
          named('pay_n5', 'Omari', 'Kamau', 5),
          named('pay_n6', 'Mohamed', 'Salah', 6),
          named('pay_n7', 'Muhammad', 'Ali', 7),
          // A name of more words than are paired (blind.ts PAIRED_NAME_WORDS): found by its marker and words.
          named('pay_n8', 'Amara Ngozi Ada Chioma Ifeoma Uche Nneka Obi', 'Okafor', 8),
        ],
        '2026-11-20T00:00:00.000Z',
      );
      const found = async (q: string) =>
        (await search(q)).data.map((hit) => [hit.id, hit.matched.filter((m) => m.startsWith('name'))]);
      expect(await found('Abdul')).toEqual([
        ['pay_n2', ['namePrefix']],
        ['pay_n1', ['namePrefix']],
      ]);
      expect(await found('Grace Abdulahi')).toEqual([['pay_n1', ['nameSounds']]]);
      // Two words' forms are paired: a long name is found by its words (the slip of a letter in the last).
      expect(await found('Amara Okafur')).toEqual([['pay_n8', ['nameSounds']]]);
      expect(await found('Amar Okafor')).toEqual([['pay_n8', ['namePrefix']]]);
      // Newest first within a rank, but the exact word before its start before what only sounds like it.
      expect(await found('amara')).toEqual([
        ['pay_n8', ['name']],
        ['pay_n3', ['name']],
        ['pay_n4', ['namePrefix']],
        ['pay_n5', ['nameSounds']],
      ]);
      expect(await found('Muhammad')).toEqual([
        ['pay_n7', ['name']],
        ['pay_n6', ['nameSounds']],
      ]);
      expect((await search('amara')).count).toBe(4);
      // Two letters are no start of a name, and say nothing of its sound.
      expect(await found('Am')).toEqual([]);
      // A name with many exact matches lists those alone (forgiving kinds join only below `forgiveBelow`).
      const strict = createQueries(store, { forgiveBelow: 1 });
      expect(ids(await strict.search('amara', noFilters, 1, 10))).toEqual(['pay_n8', 'pay_n3']);
      expect(ids(await strict.search('Abdul', noFilters, 1, 10))).toEqual(['pay_n2', 'pay_n1']);
      // Walked rank by rank (many matches) or looked up (few): the same pages.
      for (const q of ['amara', 'Muhammad', 'Abdul', 'Grace Abdulahi', 'amar'])
        for (const [pageNumber, limit] of [
          [1, 1],
          [2, 1],
          [3, 1],
          [1, 2],
          [2, 2],
          [4, 1],
        ] as const)
          await walkedAsLooked(q, noFilters, pageNumber, limit);
    });

    it("counts a word's ranks the same when its one large form is counted by its range: a record holding the word and the form is counted once, at the word's rank", async () => {
      await store.upsert(
        [
          named('pay_r1', 'Amak', 'Amaka', 1),
          named('pay_r2', 'Amaka', 'Obi', 2),
          named('pay_r3', 'Ngozi', 'Amaka', 3),
          named('pay_r4', 'Amaka', 'Eze', 4),
          named('pay_r5', 'Amakiri', 'Bello', 5),
          named('pay_r6', 'Amak', 'Musa', 6),
          named('pay_r7', 'Amakiri', 'Amaka', 7),
        ],
        '2026-11-20T00:00:00.000Z',
      );
      const ranks = async (queries: ReturnType<typeof createQueries>) => {
        const page = await queries.search('amak', noFilters, 1, 20);
        return { count: page.count, rows: page.data.map((hit) => [hit.id, hit.matched]) };
      };
      const counted = await ranks(createQueries(store, { walkFrom: 1, largeForm: 3 }));
      expect(counted).toEqual(await ranks(createQueries(store, { walkFrom: 1, largeForm: Infinity })));
      expect(counted).toEqual(await ranks(createQueries(store, { walkFrom: Infinity, walkFew: false })));
      // The exact word first (newest first), then its start: Amaka (4 records, the large form) and Amakiri.
      expect(counted).toEqual({
        count: 7,
        rows: [
          ['pay_r6', ['name']],
          ['pay_r1', ['name']],
          ['pay_r7', ['namePrefix']],
          ['pay_r5', ['namePrefix']],
          ['pay_r4', ['namePrefix']],
          ['pay_r3', ['namePrefix']],
          ['pay_r2', ['namePrefix']],
        ],
      });
      for (const [pageNumber, limit] of [
        [1, 1],
        [2, 1],
        [3, 2],
        [2, 3],
      ] as const)
        await walkedAsLooked('amak', noFilters, pageNumber, limit);
    });

    it('counts every match on each page of a search, and past its last page', async () => {
      const paged = (page: number) => createQueries(store).search('okafor', noFilters, page, 1);
      const [first, second, past] = await Promise.all([paged(1), paged(2), paged(3)]);
      expect([ids(first), ids(second), ids(past)]).toEqual([['pay_3'], ['pay_1'], []]);
      expect([first.count, second.count, past.count]).toEqual([2, 2, 2]);
      // Zoë Okafor's e-mail holds the word too.
      expect(second.data[0]!.matched).toEqual(['name', 'emailLocal']);
    });

    it('returns the contact for display, opened per request, with its short mask beside it', async () => {
      // Whether a reader sees the full or the masked pair is lib/server/contact-details.ts's rule, applied after.
      const page = await search('grace@example.com');
      expect(page.data[0]).toMatchObject({
        id: 'pay_4',
        contact: {
          firstName: 'Grace',
          lastName: 'Hopper',
          email: 'grace@example.com',
          emailMasked: 'g•••@example.com',
        },
      });
    });

    it.each(['%', '_', '100%', '\\', "'; drop table collections; --", '*'])('treats %j literally', async (q) => {
      const page = await search(q);
      // A reference's start or a part of it, never a pattern (a fragment is checked against the key itself).
      for (const hit of page.data) expect(hit.reference.toLowerCase().includes(q.toLowerCase())).toBe(true);
    });

    it('finds every reference that holds a fragment, and no reference that holds its trigrams apart', async () => {
      const at = '2026-11-10T10:00:00.000Z';
      await store.upsert(
        [
          collection('pay_t1', { reference: 'ZQ-B-C', createdAt: at }),
          collection('pay_t2', { reference: 'zqbc-1', createdAt: at }),
          collection('pay_t3', { reference: 'ZQBX-C', createdAt: at }),
          collection('pay_t4', { reference: 'ZWXY-XYZ', createdAt: at }),
          // NFKC makes these 's' and 'K' (the letters SQLite's case folding would read as ASCII).
          collection('pay_t5', { reference: 'ZQ-\u017f9\u212a', createdAt: at }),
        ],
        '2026-11-20T00:00:00.000Z',
      );
      const found = async (q: string) => ids(await createQueries(store).search(q, noFilters, 1, 100)).sort();
      // Three characters from a reference's middle (one trigram: the index's match is the answer) and more
      // (each key checked).
      expect(await found('q-b')).toEqual(['pay_t1']);
      expect(await found('b-c')).toEqual(['pay_t1']);
      expect(await found('QBC')).toEqual(['pay_t2']);
      expect(await found('x-c')).toEqual(['pay_t3']);
      expect(await found('qbx')).toEqual(['pay_t3']);
      expect(await found('s9k')).toEqual(['pay_t5']);
      expect(await found('q-s')).toEqual(['pay_t5']);
      // 'wxyz''s two trigrams are both in 'zwxy-xyz', apart.
      expect(await found('wxy-')).toEqual(['pay_t4']);
      expect(await found('wxyz')).toEqual([]);
    });

    it('writes a record whose texts hold U+0000 with U+FFFD in its place, found by what its reference holds', async () => {
      // PostgreSQL refused such a record (its page's write failed for ever); SQLite's trigram tokenizer
      // dropped the NUL, and 'abc' found 'ZN-ab\0c'.
      const at = '2026-11-10T10:00:00.000Z';
      await store.upsert(
        [
          collection('pay_n1', {
            reference: 'ZN-ab\u0000c',
            type: 'invoice\u0000',
            status: 'pending\u0000',
            amount: { value: 1500, currency: 'NGN\u0000' },
            createdAt: at,
          }),
          collection('pay_n2', { reference: 'ZN-abc', createdAt: at }),
          collection('pay_n\u00003', { reference: 'ZN-id', createdAt: at }),
        ],
        '2026-11-20T00:00:00.000Z',
      );
      const found = async (q: string) => ids(await createQueries(store).search(q, noFilters, 1, 100)).sort();
      expect(await found('abc')).toEqual(['pay_n2']);
      expect(await found('b\uFFFDc')).toEqual(['pay_n1']);
      expect(await found('zn-ab')).toEqual(['pay_n1', 'pay_n2']);
      expect(await found('zn-id')).toEqual(['pay_n\uFFFD3']);
      const hit = (await createQueries(store).search('zn-ab\uFFFD', noFilters, 1, 10)).data;
      expect(hit.map((h) => [h.id, h.reference, h.type, h.status, h.amount.currency])).toEqual([
        ['pay_n1', 'ZN-ab\uFFFDc', 'invoice\uFFFD', 'pending\uFFFD', 'NGN\uFFFD'],
      ]);
    });

    it('reads quotes as punctuation, not as an operator', async () => {
      expect(ids(await search('"Okafor"'))).toEqual(ids(await search('Okafor')));
    });

    it('finds a reference that holds wildcard characters by its literal prefix', async () => {
      expect(ids(await search('100%_'))).toEqual(['pay_4']);
    });

    it("ranks a reference's start before a part of it, and finds a part in every reference that holds it", async () => {
      await store.upsert(
        [collection('pay_r1', { reference: 'XINV-2026-9', createdAt: '2026-11-10T10:00:00.000Z' })],
        '2026-11-20T00:00:00.000Z',
      );
      const page = await search('inv-2026');
      // Newest first within a rank: pay_r1 is the newest, but only holds the text.
      expect(page.data.map((h) => [h.id, h.matched])).toEqual([
        ['pay_3', ['reference']],
        ['pay_1', ['reference']],
        ['pay_r1', ['referencePart']],
      ]);
      expect(ids(await search('2026-'))).toEqual(['pay_r1', 'pay_3', 'pay_1']);
      // Renamed: the fragment index follows the reference.
      await store.upsert(
        [
          collection('pay_r1', {
            reference: 'REF-77',
            createdAt: '2026-11-10T10:00:00.000Z',
            updatedAt: '2026-11-21T00:00:00.000Z',
          }),
        ],
        '2026-11-21T00:00:00.000Z',
      );
      expect(ids(await search('2026-'))).toEqual(['pay_3', 'pay_1']);
      expect(ids(await search('f-7'))).toEqual(['pay_r1']);
      // Each trigram quoted, a quote doubled.
      expect(trigramQuery('ab"cd')).toBe('"ab""" AND "b""c" AND """cd"');
    });

    it('reads one or two characters as whole values only, never as the start of every reference', async () => {
      expect((await search('IN')).count).toBe(0);
      expect((await search('i')).count).toBe(0);
      expect(ids(await search('INV'))).toEqual(['pay_3', 'pay_1']);
      expect((await createQueries(store).plan('in')).referenceWhole).toBe(true);
    });

    it.each([
      ['only punctuation', '.-_/()'],
      ['200 characters', 'x'.repeat(200)],
      ['mixed scripts', 'Zoë Окафор 李'],
      ['right-to-left text', 'محمد عبد الله'],
      ['emoji', '😀 👍🏽'],
      ['a number too long to be one', '+234 803 123 4567 890 123 456'],
    ])('answers %s with a page, never an error', async (_, q) => {
      const page = await search(q);
      expect(page.count).toBe(0);
      expect(page.data).toEqual([]);
    });

    it('reads an address of stray letters and digits as that address alone, never by its words', async () => {
      await store.upsert(
        [collection('pay_l1', { contact: contact('Live', 'One', 'live.a1b2c3@example.com', '+234 801 555 0101') })],
        '2026-11-20T00:00:00.000Z',
      );
      expect((await search('live.d4e5f6@example.com')).count).toBe(0);
      expect(ids(await search('live.a1b2c3@example.com'))).toEqual(['pay_l1']);
    });

    it('finds nothing for a near miss', async () => {
      expect((await search('zoe.okafot@example.com')).count).toBe(0);
      expect((await search('5679')).count).toBe(0);
      expect((await search('0801 234 5679')).count).toBe(0);
    });

    it("says how it read a number, in the account's countries, and never guesses beyond them", async () => {
      const queries = createQueries(store);
      expect(await queries.phoneCountries()).toEqual(['DE', 'GB', 'NG', 'US']);
      const plan = await queries.plan('0803 123 4567');
      expect(plan.phoneReading?.readings.map((r) => r.country)).toEqual(expect.arrayContaining(['NG', 'GB']));
      expect(plan.phoneReading?.readings.map((r) => r.country)).not.toContain('KE');
      expect(plan.phoneReading?.last4).toBe('4567');
      expect((await queries.plan('Grace')).phoneReading).toBeUndefined();
    });

    it('gives records written before the spoken forms their tokens, and the account its countries', async () => {
      // As an older version left its index: no e-mail words, no vocabulary of name words, no countries.
      await store.db.deleteFrom('contact_tokens').where('kind', '=', 'emailword').execute();
      await store.db.deleteFrom('name_words').execute();
      await store.db.deleteFrom('index_meta').where('key', 'like', 'spoken_tokens:%').execute();
      await store.db.deleteFrom('index_meta').where('key', 'like', 'name_words:%').execute();
      await store.db.deleteFrom('index_meta').where('key', 'like', 'phone_countries:%').execute();
      await store.close();
      store = await openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account: ACCOUNT });
      expect(store.tokensReady).toBe(false);
      expect((await search('0801 234 5678')).count).toBe(0);
      expect((await search('Gracie Hoper')).count).toBe(0);
      expect(await store.backfillTokens(5_000)).toBe(true);
      expect(store.tokensReady).toBe(true);
      expect(ids(await search('0801 234 5678'))).toEqual(['pay_1']);
      expect(ids(await search('soren.muller'))).toEqual(['pay_2']);
      expect(ids(await search('Gracie Hoper'))).toEqual(['pay_4']);
      expect(await createQueries(store).phoneCountries()).toEqual(['DE', 'GB', 'NG', 'US']);
    });
  });

  describe("the list's columns", () => {
    it('gives a filtered row every column of the live list: methods, follow-up, and the contact opened', async () => {
      const page = await createQueries(store).list({ ...noFilters, currency: ['EUR'] }, 1, 10);
      expect(page.data).toHaveLength(1);
      expect(page.data[0]).toMatchObject({
        id: 'pay_2',
        contact: {
          firstName: 'Søren',
          lastName: 'Müller',
          email: 'soren.muller@example.com',
          phone: '+49 151 555 0199',
          emailMasked: 's•••@example.com',
          phoneMasked: '+49 ••• ••• 0199',
        },
        payable: { methods: ['payment_link', 'virtual_account'] },
        followUp: { enabled: true, channels: ['whatsapp', 'sms'] },
      });
      // Opened per read for the rows shown (the server decides who sees which: lib/server/contact-details.ts).
    });

    it('rewrites a row kept before its methods and follow-up were, the next time the sync sees it unchanged', async () => {
      // As migration 0009 leaves an existing index: the columns there, empty.
      await store.db.updateTable('collection_details').set({ methods: null, follow_up: null }).execute();
      const before = await createQueries(store).list(noFilters, 1, 10);
      expect(before.data.map((r) => [r.payable, r.followUp])).toEqual(RECORDS.map(() => [null, null]));
      await store.upsert(RECORDS, '2026-11-21T00:00:00.000Z');
      const after = await createQueries(store).list(noFilters, 1, 10);
      expect(after.data.every((r) => r.payable?.methods.length === 2 && r.followUp?.enabled)).toBe(true);
    });

    it('notices methods or follow-up that changed without the record’s updatedAt', async () => {
      const changed = collection('pay_2', {
        ...RECORDS[1],
        payable: { enabled: true, methods: ['card'], options: [] },
        followUp: { ...RECORDS[1]!.followUp, enabled: false, channels: [] },
      });
      await store.upsert([changed], '2026-11-21T00:00:00.000Z');
      const page = await createQueries(store).list({ ...noFilters, currency: ['EUR'] }, 1, 10);
      expect(page.data[0]).toMatchObject({
        payable: { methods: ['card'] },
        followUp: { enabled: false, channels: [] },
      });
    });
  });

  describe('filters and sort', () => {
    const list = (filters: Partial<typeof noFilters>, page = 1, limit = 10) =>
      createQueries(store).list({ ...noFilters, ...filters }, page, limit);

    it('filters by status, currency, dates and amount, with the total', async () => {
      expect(ids(await list({ status: ['pending'], currency: ['NGN'] }))).toEqual(['pay_4', 'pay_3', 'pay_1']);
      expect(ids(await list({ createdFrom: '2026-11-02', createdTo: '2026-11-03' }))).toEqual(['pay_3', 'pay_2']);
      expect(ids(await list({ amountMin: 900, amountMax: 5000, currency: ['NGN'] }))).toEqual(['pay_3', 'pay_1']);
      expect((await list({ status: ['completed', 'expired'] })).count).toBe(1);
    });

    it('filters by completion date (whole UTC days, both inclusive), whatever the status is now', async () => {
      await store.upsert(
        [
          collection('pay_5', {
            status: 'completed',
            createdAt: '2026-10-01T10:00:00.000Z',
            completedAt: '2026-11-05T00:00:00.000Z',
          }),
          collection('pay_6', {
            status: 'completed',
            createdAt: '2026-10-02T10:00:00.000Z',
            completedAt: '2026-11-06T23:59:59.999Z',
          }),
          collection('pay_7', {
            status: 'refunded',
            createdAt: '2026-10-03T10:00:00.000Z',
            completedAt: '2026-11-06T12:00:00.000Z',
          }),
          collection('pay_8', {
            status: 'completed',
            createdAt: '2026-10-04T10:00:00.000Z',
            completedAt: '2026-11-07T00:00:00.000Z',
          }),
        ],
        '2026-11-20T00:00:00.000Z',
      );
      expect(ids(await list({ completedFrom: '2026-11-05', completedTo: '2026-11-06' }))).toEqual([
        'pay_7',
        'pay_6',
        'pay_5',
      ]);
      expect(ids(await list({ completedFrom: '2026-11-06' }))).toEqual(['pay_8', 'pay_7', 'pay_6']);
      expect(ids(await list({ completedTo: '2026-11-05', status: ['completed'] }))).toEqual(['pay_5']);
      expect((await list({ completedFrom: '2026-11-08' })).count).toBe(0);
    });

    it('finds completed records written before the completion time moved to the narrow rows (migration 0008)', async () => {
      const completedAt = '2026-11-05T08:00:00.000Z';
      await store.upsert([collection('pay_9', { status: 'completed', completedAt })], '2026-11-20T00:00:00.000Z');
      const migrator = new Migrator({ db: store.db as Kysely<unknown>, provider: migrationProvider });
      // Back to the schema before it: the narrow rows lose the column, the details keep the time.
      expect((await migrator.migrateTo('0007-drift')).error).toBeUndefined();
      const columns = async () =>
        (await store.db.introspection.getTables()).find((t) => t.name === 'collections')!.columns.map((c) => c.name);
      expect(await columns()).not.toContain('completed_at');
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await columns()).toContain('completed_at');
      expect(ids(await list({ completedFrom: '2026-11-05', completedTo: '2026-11-05' }))).toEqual(['pay_9']);
      expect((await list({ completedFrom: '1700-01-01' })).count).toBe(1);
    });

    it('rewrites a record whose completion time alone changed (the narrow row is compared with it)', async () => {
      const record = { status: 'completed', updatedAt: '2026-11-10T00:00:00.000Z' };
      await store.upsert([collection('pay_9', { ...record, completedAt: null })], '2026-11-20T00:00:00.000Z');
      expect((await list({ completedFrom: '1700-01-01' })).count).toBe(0);
      await store.upsert(
        [collection('pay_9', { ...record, completedAt: '2026-11-09T00:00:00.000Z' })],
        '2026-11-21T00:00:00.000Z',
      );
      expect(ids(await list({ completedFrom: '2026-11-09', completedTo: '2026-11-09' }))).toEqual(['pay_9']);
    });

    it('sorts by amount both ways and pages without repeats', async () => {
      expect(ids(await list({ sort: 'amount' }))).toEqual(['pay_2', 'pay_3', 'pay_1', 'pay_4']);
      const first = await list({ sort: '-amount' }, 1, 2);
      const second = await list({ sort: '-amount' }, 2, 2);
      expect([...ids(first), ...ids(second)]).toEqual(['pay_4', 'pay_1', 'pay_3', 'pay_2']);
      expect(first.count).toBe(4);
    });

    it('counts each status and currency', async () => {
      const facets = await createQueries(store).facets();
      expect(facets.status).toEqual([
        { value: 'pending', count: 3 },
        { value: 'completed', count: 1 },
      ]);
      expect(facets.currency.find((c) => c.value === 'NGN')?.count).toBe(3);
    });
  });

  describe('the store', () => {
    it('hides rows a completed scan did not see', async () => {
      // A scan began (the sync records when): what it sees from then on is marked.
      await store.saveState({ scan_started_at: '2026-11-21T00:00:00.000Z' });
      await store.upsert([RECORDS[0]!], '2026-11-21T00:00:00.000Z');
      expect(await store.removeUnseen('2026-11-21T00:00:00.000Z')).toBe(3);
      // Their contact tokens went with them.
      expect((await createQueries(store).search('grace@example.com', noFilters, 1, 10)).count).toBe(0);
      expect(await store.indexedCount()).toBe(1);
      // Seen again: back.
      await store.upsert([RECORDS[1]!], '2026-11-22T00:00:00.000Z');
      expect(await store.indexedCount()).toBe(2);
    });

    onPostgres('marks what a scan sees on each row’s own page: no new entry in any index of the table', async () => {
      // Rows written side by side, as a scan writes an upstream page's, then seen again by the next scan
      // (unchanged: only `seen_at` is written). Each mark must stay on its row's page (PostgreSQL's "HOT"
      // update, migration 0021): a packed page moved every one and gave each of the table's ten indexes,
      // the trigram index among them, a new entry (all 200 here).
      const many = Array.from({ length: 200 }, (_, i) => named(`pay_m${i}`, 'Ada', `Obi${i}`, 1 + (i % 28)));
      await store.upsert(many, '2026-11-20T00:00:00.000Z');
      const updates = async () => {
        await sql`select pg_stat_force_next_flush()`.execute(store.db);
        const { rows } = await sql<{ all: string; hot: string }>`select n_tup_upd as all, n_tup_hot_upd as hot
          from pg_stat_user_tables where relname = 'collections'`.execute(store.db);
        return { all: Number(rows[0]!.all), hot: Number(rows[0]!.hot) };
      };
      const before = await updates();
      await store.saveState({ scan_started_at: '2026-11-21T00:00:00.000Z' });
      await store.upsert(many, '2026-11-21T00:00:00.000Z');
      const after = await updates();
      expect(after.all - before.all).toBe(200);
      expect(after.hot - before.hot).toBe(200);
      // Marked all the same: the scan's end keeps them and hides the four it did not see.
      expect(await store.removeUnseen('2026-11-21T00:00:00.000Z')).toBe(4);
      expect(await store.indexedCount()).toBe(200);
    });

    onPostgres('keeps each name token’s count with its rows, whatever writes or deletes them', async () => {
      // PostgreSQL's triggers (migration 0023) count a `name` token's rows in the transaction that writes
      // them: what a search by one common name word reads instead of counting the token's range.
      const counts = async () =>
        (
          await sql<{ account: number; token: string; n: string }>`select account, token, n from name_counts
            order by account, token`.execute(store.db)
        ).rows.map((r) => `${r.account} ${r.token} ${r.n}`);
      const truth = async () =>
        (
          await sql<{ account: number; token: string; n: string }>`select account, token, count(*) as n
            from contact_tokens where kind = 'name' group by account, token order by account, token`.execute(store.db)
        ).rows.map((r) => `${r.account} ${r.token} ${r.n}`);
      const agree = async (step: string) => {
        const kept = await counts();
        expect(kept.length, step).toBeGreaterThan(0);
        expect(kept, step).toEqual(await truth());
      };
      await agree('written');
      const okafor = blindKeys(SECRET).token('name', 'okafor');
      const countOf = async (token: string) =>
        Number(
          (await sql<{ n: string }>`select n from name_counts where token = ${token}`.execute(store.db)).rows[0]?.n ??
            0,
        );
      expect(await countOf(okafor)).toBe(2);

      // A contact renamed: the old name's count goes down, the new one's up.
      await store.upsert(
        [
          collection('pay_3', {
            ...RECORDS[2]!,
            contact: { ...RECORDS[2]!.contact, lastName: 'Eze' },
            updatedAt: '2026-11-21T00:00:00.000Z',
          }),
        ],
        '2026-11-21T00:00:00.000Z',
      );
      await agree('renamed');
      expect(await countOf(okafor)).toBe(1);

      // A first scan's records, staged and merged in bulk; many of one name.
      const many = Array.from({ length: 120 }, (_, i) =>
        named(`pay_c${i}`, 'Ada', i % 2 ? 'Okafor' : 'Obi', 1 + (i % 28)),
      );
      await store.upsert(many, '2026-11-21T00:00:00.000Z', { bulk: true, stage: true });
      await store.settleTokens();
      await agree('merged');
      expect(await countOf(okafor)).toBe(61);
      // The searches that read them: one name word's exact matches alone (its count), and a name's start
      // whose one large form is counted whole ('oka': okafor's 61).
      const exact = createQueries(store, { walkFrom: 1, forgiveBelow: 1 });
      expect((await exact.search('ada', noFilters, 1, 10)).count).toBe(120);
      expect((await exact.search('okafor', noFilters, 7, 10)).data).toHaveLength(1);
      const started = await createQueries(store, { walkFrom: 1, largeForm: 2 }).search('oka', noFilters, 1, 10);
      expect([started.count, started.data.length]).toEqual([61, 10]);
      // Read from the table, not counted: a count set wrong shows (past the 5,000 a name word's rows are
      // otherwise bounded by), and set right again, agrees.
      const ada = blindKeys(SECRET).token('name', 'ada');
      await sql`update name_counts set n = 6000 where token = ${ada}`.execute(store.db);
      expect((await exact.search('ada', noFilters, 1, 10)).count).toBe(6000);
      await sql`update name_counts set n = 120 where token = ${ada}`.execute(store.db);
      await agree('set right');

      // An index made before the counts: the migration counts what is there.
      await migration.down(store.db as Kysely<unknown>);
      await store.db.transaction().execute((trx) => migration.up(trx as unknown as Kysely<unknown>));
      await agree('migrated');

      // Rows a completed scan did not see go, and their counts with them; a count fallen to 0 leaves no row.
      await store.saveState({ scan_started_at: '2026-11-22T00:00:00.000Z' });
      await store.upsert(many.slice(0, 10), '2026-11-22T00:00:00.000Z');
      await store.removeUnseen('2026-11-22T00:00:00.000Z');
      await agree('hidden');
      expect(
        Number(
          (await sql<{ n: string }>`select count(*) as n from name_counts where n <= 0`.execute(store.db)).rows[0]!.n,
        ),
      ).toBe(0);
      expect(await countOf(okafor)).toBe(5);

      // Every row of the account deleted (an account pruned): none of its counts left.
      await sql`delete from contact_tokens`.execute(store.db);
      expect(await counts()).toEqual([]);
    });

    it('keeps a collection the list does not return, opened by its id: searchable, counted apart, never hidden by a scan', async () => {
      const standalone = collection('pay_s1', {
        type: 'standalone',
        reference: 'INV-P-0225',
        contact: contact('Ngozi', 'Balogun', 'ngozi.balogun@example.com', '+234 803 555 0225'),
      });
      await store.upsert([standalone], '2026-11-20T00:00:00.000Z');
      // Counted apart: the roll-ups (the overview, the rows indexed) count what the list returns.
      expect([await store.indexedCount(), await store.openedCount()]).toEqual([4, 1]);
      await store.saveState({ scan_started_at: '2026-11-21T00:00:00.000Z' });
      await store.upsert(RECORDS, '2026-11-21T00:00:00.000Z');
      // The scan saw every listed record and could not see the standalone one: it stays.
      expect(await store.removeUnseen('2026-11-21T00:00:00.000Z')).toBe(0);
      for (const q of ['INV-P-0225', 'ngozi balogun', '0803 555 0225', 'ngozi.balogun'])
        expect(ids(await createQueries(store).search(q, noFilters, 1, 10)), q).toEqual(['pay_s1']);
      // Not part of a list without a search, nor of its filter menus' counts (they count what the list returns).
      const listed = await createQueries(store).list(noFilters, 1, 10);
      expect([listed.count, ids(listed)]).toEqual([4, ['pay_4', 'pay_3', 'pay_2', 'pay_1']]);
      const facets = await createQueries(store).facets();
      expect(facets.status.reduce((n, s) => n + s.count, 0)).toBe(4);
      expect(await store.openedCount()).toBe(1);
    });

    it("reads the status figures in one statement, and writes a list page's count with its rows", async () => {
      let statements = 0;
      const counted = store.reads.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async (args) => (statements++, args.result),
      });
      const figures = () => statusFigures(counted, store.dialect, store.account);
      await store.upsert([collection('pay_s1', { type: 'standalone' })], '2026-11-20T00:00:00.000Z');
      expect(await figures()).toMatchObject({ indexed: 4, openedById: 1, state: { upstream_count: null } });
      expect(statements).toBe(1);
      // A list page's new record and its count: written together (records-upsert.ts), read together.
      await store.upsert([collection('pay_5', { ...RECORDS[0], id: 'pay_5' })], '2026-11-21T00:00:00.000Z', {
        upstreamCount: 5,
      });
      expect(await figures()).toMatchObject({ indexed: 5, openedById: 1, state: { upstream_count: 5 } });
      // A page of records the index holds as they are, and an empty page: the count is written all the same.
      await store.upsert(RECORDS, '2026-11-21T00:00:00.000Z', { upstreamCount: 6 });
      expect((await figures()).state.upstream_count).toBe(6);
      await store.upsert([], '2026-11-21T00:00:00.000Z', { upstreamCount: 7 });
      expect((await figures()).state.upstream_count).toBe(7);
      expect(statements).toBe(4);
    });

    it("writes a record prepared ahead (a first scan's next page) as it writes one it prepares itself", async () => {
      const ahead = collection('pay_ahead', { ...RECORDS[0], id: 'pay_ahead' });
      const itself = collection('pay_itself', { ...RECORDS[0], id: 'pay_itself' });
      await store.prepare([ahead]);
      await store.upsert([ahead, itself], '2026-11-21T00:00:00.000Z');
      /** A row without the columns that differ by design: the id, the seal (a fresh nonce each time), the fragments' row. */
      const without = (row: Record<string, unknown>, ...columns: string[]) =>
        Object.fromEntries(Object.entries(row).filter(([column]) => !columns.includes(column)));
      const held = async (id: string) => ({
        narrow: without(
          await store.db.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
          'id',
          // SQLite: where its reference's fragments are filed (migration 0026), one number a row.
          'fragment_row',
        ),
        details: without(
          await store.db.selectFrom('collection_details').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
          'id',
          'contact_sealed',
        ),
        tokens: await store.db
          .selectFrom('contact_tokens')
          .select(['kind', 'token'])
          .where('id', '=', id)
          .orderBy('kind')
          .orderBy('token')
          .execute(),
      });
      const [prepared, plain] = [await held('pay_ahead'), await held('pay_itself')];
      expect(prepared.tokens.length).toBeGreaterThan(5);
      expect(prepared).toEqual(plain);
      const found = await createQueries(store).search('Zoe.Okafor@Example.com', noFilters, 1, 10);
      const contactOf = (id: string) => found.data.find((h) => h.id === id)?.contact;
      expect(contactOf('pay_ahead')).toMatchObject({ firstName: 'Zoë', lastName: 'Okafor' });
      expect(contactOf('pay_ahead')).toEqual(contactOf('pay_itself'));
    });

    it("stages a first scan's tokens and merges them in order: the same tokens and searches as written in place", async () => {
      const plain = await openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account: 'acct_plain' });
      try {
        const staged = () =>
          store.db
            .selectFrom('contact_tokens_staged')
            .select(['kind', 'token', 'id'])
            .where('account', '=', store.account)
            .execute();
        const tokens = (s: IndexStore) =>
          s.db
            .selectFrom('contact_tokens')
            .select(['kind', 'token', 'id'])
            .where('account', '=', s.account)
            .orderBy('kind')
            .orderBy('token')
            .orderBy('id')
            .execute();
        const firsts = ['Amara', 'Chidi', 'Grace', 'Ngozi', 'Tunde', 'Zoë'];
        const lasts = ['Okafor', 'Abdullahi', 'Müller', 'Okafor-Bello'];
        const batch = Array.from({ length: 24 }, (_, i) =>
          collection(`pay_s${i}`, {
            reference: `STG-${i}`,
            contact: contact(
              firsts[i % 6]!,
              lasts[i % 4]!,
              `${firsts[i % 6]}.${i}@example.org`,
              `+234 803 555 ${String(1000 + i)}`,
            ),
            createdAt: `2026-10-${String(1 + i).padStart(2, '0')}T10:00:00.000Z`,
          }),
        );
        await plain.upsert([...RECORDS, ...batch], '2026-11-20T00:00:00.000Z');
        await store.upsert(batch, '2026-11-20T00:00:00.000Z', { bulk: true, stage: true });
        expect((await staged()).length).toBeGreaterThan(24 * 5);
        // Until the merge a staged record is found by its reference, not yet by its contact.
        const search = (s: IndexStore, q: string) => createQueries(s).search(q, noFilters, 1, 50).then(ids);
        expect(await search(store, 'STG-7')).toEqual(['pay_s7']);
        expect(await search(store, 'Amara.6@example.org')).toEqual([]);
        // A staged record that changes (a page read again, a live read) loses its staged tokens: a merge
        // must not bring its old name back.
        const renamed = (c: Collection) =>
          collection(c.id, { ...c, contact: { ...c.contact, lastName: 'Eze' }, updatedAt: '2026-11-21T00:00:00.000Z' });
        await store.upsert([renamed(batch[3]!)], '2026-11-21T00:00:00.000Z', { bulk: true, stage: true });
        await plain.upsert([renamed(batch[3]!)], '2026-11-21T00:00:00.000Z');
        expect((await staged()).filter((t) => t.id === 'pay_s3')).toEqual([]);
        const waiting = (await tokens(plain)).length - (await tokens(store)).length;
        expect(waiting).toBe((await staged()).length);
        expect(await store.settleTokens()).toBe(waiting);
        expect(await staged()).toEqual([]);
        expect(await tokens(store)).toEqual(await tokens(plain));
        for (const q of [
          'Amara.6@example.org',
          'Grace Müller',
          'okafor',
          'Abdul',
          'Ngosi',
          '0803 555 1009',
          '1009',
          'Tunde Eze',
          'Tunde Abdullahi',
        ])
          expect(await search(store, q), q).toEqual(await search(plain, q));
        expect(await search(store, 'Ngozi Eze')).toEqual(['pay_s3']);
        expect(await store.settleTokens()).toBe(0);
        // A staged token the index holds already (the writes never leave one; one is copied here by hand): the
        // merge keeps it once and moves the rest (on PostgreSQL its slice, copied plainly, fails and is copied
        // again tolerating it).
        const late = collection('pay_s99', {
          reference: 'STG-99',
          contact: contact('Amara', 'Okafor', 'amara.99@example.org', '+234 803 555 1099'),
          createdAt: '2026-10-30T10:00:00.000Z',
        });
        await store.upsert([late], '2026-11-22T00:00:00.000Z', { bulk: true, stage: true });
        await plain.upsert([late], '2026-11-22T00:00:00.000Z');
        const held = (await staged()).find((t) => t.id === 'pay_s99' && t.kind === 'name')!;
        await store.db
          .insertInto('contact_tokens')
          .values({ account: store.account, ...held })
          .execute();
        const lateOnes = (await staged()).length;
        expect(lateOnes).toBeGreaterThan(5);
        expect(await store.settleTokens()).toBe(lateOnes);
        expect(await staged()).toEqual([]);
        expect(await tokens(store)).toEqual(await tokens(plain));
        expect(await search(store, 'Amara Okafor')).toEqual(await search(plain, 'Amara Okafor'));
        // Merged along the way once enough wait: a store that merges at 40 tokens holds fewer staged.
        const early = await openIndexStore({
          target: kind.target(dir),
          keys: blindKeys(SECRET),
          account: 'acct_early',
          settleAtTokens: 40,
        });
        try {
          const held = (table: 'contact_tokens' | 'contact_tokens_staged') =>
            early.db.selectFrom(table).select('id').where('account', '=', early.account).execute();
          for (const part of [batch.slice(0, 5), batch.slice(5, 10), batch.slice(10, 12)])
            await early.upsert(part, '2026-11-20T00:00:00.000Z', { bulk: true, stage: true });
          // 5 records (> 40 tokens) merged, twice; the last 2 wait.
          expect(new Set((await held('contact_tokens')).map((r) => r.id)).size).toBe(10);
          expect(new Set((await held('contact_tokens_staged')).map((r) => r.id))).toEqual(
            new Set(['pay_s10', 'pay_s11']),
          );
        } finally {
          await early.close();
        }
      } finally {
        await plain.close();
      }
    });

    it('only marks a record seen when it comes back unchanged, and rewrites it when it changed', async () => {
      const sealed = () =>
        store.db
          .selectFrom('collection_details')
          .select('contact_sealed')
          .where('id', '=', 'pay_1')
          .executeTakeFirstOrThrow();
      const seen = () =>
        store.db.selectFrom('collections').select('seen_at').where('id', '=', 'pay_1').executeTakeFirstOrThrow();
      const before = await sealed();
      // No scan running: nothing asks whether it was seen, so nothing is written at all.
      await store.upsert([RECORDS[0]!], '2026-11-20T12:00:00.000Z');
      expect((await seen()).seen_at).toBe('2026-11-20T00:00:00.000Z');
      // A scan running: marked once, and not again while it stays seen since the scan began.
      await store.saveState({ scan_started_at: '2026-11-20T23:00:00.000Z' });
      await store.upsert([RECORDS[0]!], '2026-11-21T00:00:00.000Z');
      expect(await sealed()).toEqual(before);
      expect((await seen()).seen_at).toBe('2026-11-21T00:00:00.000Z');
      await store.upsert([RECORDS[0]!], '2026-11-21T06:00:00.000Z');
      expect((await seen()).seen_at).toBe('2026-11-21T00:00:00.000Z');
      const paid = collection('pay_1', { ...RECORDS[0], status: 'completed', updatedAt: '2026-11-21T10:00:00.000Z' });
      await store.upsert([paid], '2026-11-22T00:00:00.000Z');
      expect(await sealed()).not.toEqual(before);
      expect(ids(await createQueries(store).list({ ...noFilters, status: ['completed'] }, 1, 10))).toContain('pay_1');
      // A new e-mail: the old one finds nothing as an address any more, only as words (zoe is her new
      // address's, okafor her name's: each said), the new one does.
      const moved = collection('pay_1', {
        ...RECORDS[0],
        contact: { ...RECORDS[0]!.contact, email: 'zoe@new.example' },
        updatedAt: '2026-11-22T10:00:00.000Z',
      });
      await store.upsert([moved], '2026-11-23T00:00:00.000Z');
      const search = (q: string) => createQueries(store).search(q, noFilters, 1, 10);
      expect((await search('zoe.okafor@example.com')).data.map((h) => [h.id, h.matched])).toEqual([
        ['pay_1', ['emailLocal', 'name']],
      ]);
      expect((await search('okafor.zoe@elsewhere.example')).data.map((h) => h.matched)).toEqual([
        ['emailLocal', 'name'],
      ]);
      expect(ids(await search('zoe@new.example'))).toEqual(['pay_1']);
      expect(ids(await search('okafor zoe'))).toEqual(['pay_1']);
    });

    onSqlite(
      'refreshes the planner statistics from a sample (a full ANALYZE of 1M rows held the loop 20 s)',
      async () => {
        await store.analyze();
        const limit = (await sql<{ analysis_limit: number }>`PRAGMA analysis_limit`.execute(store.db)).rows[0]!;
        expect(limit.analysis_limit).toBeGreaterThan(0);
        const stats = await sql<{ tbl: string }>`SELECT tbl FROM sqlite_stat1`.execute(store.db);
        expect(stats.rows.map((r) => r.tbl)).toEqual(expect.arrayContaining(['collections', 'contact_tokens']));
      },
    );

    onSqlite('writes U+FFFD where a reference written before held U+0000 (migration 0024)', async () => {
      await store.upsert(
        [collection('pay_n3', { reference: 'ZM-abc' }), collection('pay_n4', { reference: 'ZM-abd' })],
        '2026-11-20T00:00:00.000Z',
      );
      const migrator = new Migrator({ db: store.db as Kysely<unknown>, provider: migrationProvider });
      expect((await migrator.migrateTo('0023-name-counts')).error).toBeUndefined();
      // As the version before wrote it (SQLite held the NUL; its trigram index dropped it).
      await sql`update collections set reference_key = ${'zm-ab\u0000c'} where id = 'pay_n3'`.execute(store.db);
      await sql`update collection_details set reference = ${'ZM-ab\u0000c'} where id = 'pay_n3'`.execute(store.db);
      const found = async (q: string) => ids(await createQueries(store).search(q, noFilters, 1, 100)).sort();
      expect(await found('abc')).toEqual(['pay_n3']);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await found('abc')).toEqual([]);
      expect(await found('b\uFFFDc')).toEqual(['pay_n3']);
      expect(await found('abd')).toEqual(['pay_n4']);
      const [hit] = (await createQueries(store).search('zm-ab\uFFFD', noFilters, 1, 10)).data;
      expect([hit?.id, hit?.reference]).toEqual(['pay_n3', 'ZM-ab\uFFFDc']);
    });

    onSqlite(
      'keeps every account, and never numbers a new one at or below a number any row names (migration 0028), and back',
      async () => {
        const migrator = new Migrator({ db: store.db as Kysely<unknown>, provider: migrationProvider });
        const accounts = async () => (await sql`select * from accounts order by id`.execute(store.db)).rows;
        expect((await migrator.migrateTo('0027-collections-by-rowid')).error).toBeUndefined();
        const before = await accounts();
        expect(before).toHaveLength(1);
        // Rows a replica on a former secret wrote under an account that no longer exists.
        await sql`insert into sync_state (account, scan_page, scan_missed, scans_completed) values (9, 1, '[]', 0)`.execute(
          store.db,
        );
        expect((await migrator.migrateToLatest()).error).toBeUndefined();
        expect(await accounts()).toEqual(before);
        await sql`insert into accounts (key) values ('acct_next')`.execute(store.db);
        expect((await accounts()).map((a) => (a as { id: number }).id)).toEqual([store.account, 10]);
        // Emptied (a change of secret), the next is numbered past every one before.
        await sql`delete from accounts`.execute(store.db);
        await sql`insert into accounts (key) values ('acct_after')`.execute(store.db);
        expect((await accounts()).map((a) => (a as { id: number }).id)).toEqual([11]);

        expect((await migrator.migrateTo('0027-collections-by-rowid')).error).toBeUndefined();
        expect((await accounts()).map((a) => (a as { id: number }).id)).toEqual([11]);
        expect((await migrator.migrateToLatest()).error).toBeUndefined();
      },
    );

    onSqlite(
      'keeps every detail when they move from a clustered table to a rowid one (migration 0025), and back',
      async () => {
        const standalone = collection('pay_s2', { type: 'standalone', reference: 'INV-P-0226' });
        await store.upsert([standalone], '2026-11-20T00:00:00.000Z');
        const migrator = new Migrator({ db: store.db as Kysely<unknown>, provider: migrationProvider });
        const clustered = async () =>
          /without rowid\s*$/i.test(
            (
              await sql<{ sql: string }>`select sql from sqlite_master where name = 'collection_details'`.execute(
                store.db,
              )
            ).rows[0]!.sql,
          );
        const details = async () =>
          (await sql`select * from collection_details order by account, id`.execute(store.db)).rows;
        const seen = async () => ({
          details: await details(),
          opened: await store.openedCount(),
          lastSeen: await createQueries(store).lastSeen('pay_s2'),
          found: ids(await createQueries(store).search('INV-P-0226', noFilters, 1, 10)),
          listed: ids(await createQueries(store).list(noFilters, 1, 10)),
        });
        const before = await seen();
        expect(before.details).toHaveLength(RECORDS.length + 1);
        expect([before.opened, before.found, before.lastSeen?.summary.reference]).toEqual([
          1,
          ['pay_s2'],
          'INV-P-0226',
        ]);
        expect(await clustered()).toBe(false);

        expect((await migrator.migrateTo('0024-references-without-nul')).error).toBeUndefined();
        expect(await clustered()).toBe(true);
        expect(await seen()).toEqual(before);

        expect((await migrator.migrateToLatest()).error).toBeUndefined();
        expect(await clustered()).toBe(false);
        expect(await seen()).toEqual(before);
        await expectStatsAndKey('collection_details', 'pay_s2');
        // A record written again replaces its row, and the opened ones' tree is read.
        await store.upsert([{ ...standalone, reference: 'INV-P-0227' }], '2026-11-21T00:00:00.000Z');
        expect((await details()).filter((d) => (d as { id: string }).id === 'pay_s2')).toHaveLength(1);
        expect((await createQueries(store).lastSeen('pay_s2'))?.summary.reference).toBe('INV-P-0227');
        const plan = await sql<{ detail: string }>`explain query plan
        select id from collection_details indexed by collection_details_opened where account = 1 and type <> 'integrated'`.execute(
          store.db,
        );
        expect(plan.rows.map((r) => r.detail).join(' ')).toMatch(/collection_details_opened/);
      },
    );

    onSqlite(
      'keeps every narrow row, tree and trigger when they move from a clustered table to a rowid one (migration 0027), and back',
      async () => {
        const migrator = new Migrator({ db: store.db as Kysely<unknown>, provider: migrationProvider });
        const schemaOf = async () =>
          (
            await sql<{ type: string; name: string; sql: string }>`select type, name, sql from sqlite_master
              where tbl_name = 'collections' order by type, name`.execute(store.db)
          ).rows;
        const clustered = async () =>
          /without rowid\s*$/i.test((await schemaOf()).find((r) => r.type === 'table')!.sql);
        // Its trees and triggers by name (the key's own tree, which SQLite makes and names, has no SQL: left out).
        const made = async () =>
          (await schemaOf()).filter((r) => r.type !== 'table' && r.sql).map((r) => `${r.type} ${r.name}`);
        const found = async (q: string) => ids(await createQueries(store).search(q, noFilters, 1, 100)).sort();
        const seen = async () => ({
          rows: (await sql`select * from collections order by account, id`.execute(store.db)).rows,
          listed: ids(await createQueries(store).list(noFilters, 1, 10)),
          byAmount: ids(await createQueries(store).list({ ...noFilters, sort: 'amount' }, 1, 10)),
          fragment: await found('2026-000'),
          lastSeen: (await createQueries(store).lastSeen('pay_1'))?.summary.reference,
        });
        // A first scan may have put a tree by amount off: the move keeps the table's trees as they are.
        await store.db.schema.dropIndex('collections_amount').execute();
        const before = await seen();
        const trees = await made();
        expect(before.rows).toHaveLength(RECORDS.length);
        expect(before.fragment.length).toBeGreaterThan(0);
        expect(trees).toEqual(
          expect.arrayContaining(['index collections_reference_created', 'trigger reference_fragments_insert']),
        );
        expect(trees).not.toContain('index collections_amount');
        expect(await clustered()).toBe(false);

        expect((await migrator.migrateTo('0026-fragment-row-on-the-row')).error).toBeUndefined();
        expect(await clustered()).toBe(true);
        expect(await seen()).toEqual(before);
        expect(await made()).toEqual(trees);

        expect((await migrator.migrateToLatest()).error).toBeUndefined();
        expect(await clustered()).toBe(false);
        expect(await seen()).toEqual(before);
        expect(await made()).toEqual(trees);
        await expectStatsAndKey('collections', 'pay_1');
        // A record written again replaces its row.
        await store.upsert(
          [collection('pay_1', { reference: 'MOVED-9Z7', updatedAt: '2026-11-21T00:00:00.000Z' })],
          '2026-11-21T00:00:00.000Z',
        );
        expect(
          (await sql<{ n: number }>`select count(*) as n from collections where id = 'pay_1'`.execute(store.db))
            .rows[0]!.n,
        ).toBe(1);
        // The triggers made again keep the fragments: the new reference found by its middle, the old one not.
        expect(await found('d-9z')).toEqual(['pay_1']);
        expect(await found('inv-2026-0001')).not.toContain('pay_1');
        await store.upsert([collection('pay_new', { reference: 'NEWEST-4K' })], '2026-11-21T00:00:00.000Z');
        expect(await found('st-4k')).toEqual(['pay_new']);
        await sql`delete from collections where id = 'pay_new'`.execute(store.db);
        expect(await found('st-4k')).toEqual([]);
        // The tree by amount a first scan put off, built as the scan's end builds it.
        expect(await store.buildTrees()).toBe(1);
        // Its trees still end in `id` (on a rowid table they must name it): a page in amount, update or status
        // order, ties broken by id, is read in order from its tree, never sorted aside.
        const orders: [string, string][] = [
          ['', 'amount_value, id'],
          ['', 'updated_at desc, id desc'],
          ["and status = 'pending'", 'created_at, id'],
          ["and currency = 'NGN' and status = 'pending'", 'amount_value, created_at, id'],
        ];
        for (const [where, order] of orders) {
          const plan = await sql<{ detail: string }>`explain query plan select id from collections
            where account = 1 ${sql.raw(where)} order by ${sql.raw(order)} limit 1 offset 5000`.execute(store.db);
          expect(plan.rows.map((r) => r.detail).join(' '), order).not.toMatch(/TEMP B-TREE/);
        }
        // And the completed rows' ids are read from their tree alone (a count that leaves the opened ones out).
        const completed = await sql<{ detail: string }>`explain query plan select id from collections
          where account = 1 and completed_at >= '2000-01-01' and currency = 'EUR'`.execute(store.db);
        expect(completed.rows.map((r) => r.detail).join(' ')).toMatch(/COVERING INDEX collections_completed/);
      },
    );

    onSqlite(
      'keeps every reference fragment when a row holds where they are filed (migration 0026), and back',
      async () => {
        const migrator = new Migrator({ db: store.db as Kysely<unknown>, provider: migrationProvider });
        const found = async (q: string) => ids(await createQueries(store).search(q, noFilters, 1, 100)).sort();
        // Entries in the trigram index, rows that number them, narrow rows, and narrow rows whose number leads to an
        // entry of their own: one each, none left behind by a change or a removal.
        const filed = async () =>
          Object.values(
            (
              await sql<Record<string, number>>`select
              (select count(*) from reference_fragments) as entries,
              (select count(*) from reference_fragment_rows) as numbered,
              (select count(*) from collections) as narrow,
              (select count(*) from collections as c
                join reference_fragment_rows as r on r.rowid = c.fragment_row and r.account = c.account and r.id = c.id
                join reference_fragments as f on f.rowid = c.fragment_row) as own`.execute(store.db)
            ).rows[0]!,
          ).map(Number);
        // Written, changed and removed under each version's triggers; found by a middle fragment either way.
        const writeAndFind = async (n: number) => {
          const at = `2026-11-2${n}T00:00:00.000Z`;
          await store.upsert(
            [
              collection(`pay_f${n}`, { reference: `FRAG-${n}7Q9` }),
              collection(`pay_g${n}`, { reference: `GONE-${n}X4` }),
            ],
            at,
          );
          expect(await found(`${n}7q`)).toEqual([`pay_f${n}`]);
          await store.upsert([collection(`pay_f${n}`, { reference: `FRAG-${n}8R2`, updatedAt: at })], at);
          expect(await found(`${n}7q`)).toEqual([]);
          expect(await found(`${n}8r`)).toEqual([`pay_f${n}`]);
          await sql`delete from collections where id = ${`pay_g${n}`}`.execute(store.db);
          expect(await found(`${n}x4`)).toEqual([]);
        };
        await writeAndFind(1);
        expect((await migrator.migrateTo('0025-details-by-rowid')).error).toBeUndefined();
        expect(await found('18r')).toEqual(['pay_f1']);
        await writeAndFind(2);
        expect((await migrator.migrateToLatest()).error).toBeUndefined();
        for (const [q, id] of [
          ['18r', 'pay_f1'],
          ['28r', 'pay_f2'],
          ['inv-2026-000', 'pay_1'],
        ] as const)
          expect(await found(q), q).toContain(id);
        await writeAndFind(3);
        const counts = await filed();
        expect(counts[0]).toBeGreaterThan(RECORDS.length);
        expect(new Set(counts).size).toBe(1);
      },
    );

    onSqlite('reports a full disk from a write as SQLITE_FULL (what the service turns into "off")', async () => {
      const { page_count: pages } = (await sql<{ page_count: number }>`PRAGMA page_count`.execute(store.db)).rows[0]!;
      await sql.raw(`PRAGMA max_page_count = ${pages + 2}`).execute(store.db);
      const many = Array.from({ length: 300 }, (_, i) => collection(`pay_full${i}`, { reference: `FULL-${i}` }));
      await expect(store.upsert(many, '2026-11-21T00:00:00.000Z')).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    });

    it('hands the sync lease over when it lapses on the database clock, and at once when released', async () => {
      // The database's clock, faked: the lease never reads the process's own.
      const database = { now: 0 };
      const clocked = await openIndexStore({
        target: kind.target(dir),
        keys: blindKeys(SECRET),
        account: ACCOUNT,
        clock: () => database.now,
      });
      const at = (ms: number, owner: string) => {
        database.now = ms;
        return clocked.lease(owner, 30_000);
      };
      try {
        expect(await at(0, 'a')).toBe(true);
        expect(await at(1_000, 'b')).toBe(false);
        expect(await at(10_000, 'a')).toBe(true);
        expect(await at(39_000, 'b')).toBe(false);
        expect(await at(40_001, 'b')).toBe(true);
        await clocked.release('b');
        expect(await at(40_002, 'a')).toBe(true);
      } finally {
        await clocked.close();
      }
    });

    it("reads the database's own time for the lease", async () => {
      const before = Date.now();
      expect(await store.lease('a', 30_000)).toBe(true);
      const after = Date.now();
      // This machine's clock is the database's here: the expiry is its time and the TTL.
      const { expires_at } = await store.db.selectFrom('sync_lease').select('expires_at').executeTakeFirstOrThrow();
      expect(Number(expires_at)).toBeGreaterThanOrEqual(before + 30_000 - 5);
      expect(Number(expires_at)).toBeLessThanOrEqual(after + 30_000 + 5);
      expect(await store.lease('b', 30_000)).toBe(false);
      const now = await store.now();
      expect(Math.abs(now - Date.now())).toBeLessThan(1_000);
    });

    onSqlite('releases the lease synchronously (process exit)', async () => {
      expect(await store.lease('a', 30_000)).toBe(true);
      store.releaseNow('a');
      expect(await store.lease('b', 30_000)).toBe(true);
    });

    it('empties itself when the secret changes, instead of misreading', async () => {
      const other = await openIndexStore({
        target: kind.target(dir),
        keys: blindKeys(SECRET.replace('a', 'b')),
        account: ACCOUNT,
      });
      expect(other.opened).toBe('rebuilt');
      expect(await other.indexedCount()).toBe(0);
      // A replica still running with the old secret can tell (service.ts turns its index off).
      expect(await store.sameSecret()).toBe(false);
      expect(await other.sameSecret()).toBe(true);
      await other.close();
    });

    onSqlite('sets aside a file it cannot migrate (another version wrote it) and starts again', async () => {
      await store.close();
      const path = join(dir, 'index.sqlite');
      const raw = new Database(path);
      raw.prepare("INSERT INTO kysely_migration (name, timestamp) VALUES ('0099-from-another-version', '2027')").run();
      raw.close();
      store = await openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account: ACCOUNT });
      expect(store.opened).toBe('rebuilt');
      expect(readdirSync(dir).some((f) => f.includes('.incompatible-'))).toBe(true);
      await store.upsert(RECORDS, '2026-11-20T00:00:00.000Z');
      expect(await store.indexedCount()).toBe(4);
    });

    it('holds no readable contact data, in any case or encoding', async () => {
      // A first scan's tokens waiting to be merged too.
      await store.upsert(
        RECORDS.map((r) => collection(`${r.id}_staged`, { ...r, id: `${r.id}_staged` })),
        '2026-11-20T00:00:00.000Z',
        { bulk: true, stage: true },
      );
      expect((await store.db.selectFrom('contact_tokens_staged').select('id').execute()).length).toBeGreaterThan(4);
      const all = await kind.storedText(store.db as Kysely<never>, dir);
      expect(all).toContain('pay_1');
      const needles = RECORDS.flatMap((r) => [
        r.contact.email,
        r.contact.phone,
        r.contact.phone.replace(/\D/g, ''),
        r.contact.firstName,
        r.contact.lastName,
        r.contact.firstName.normalize('NFD'),
        // The national number and the e-mail's local part, kept as tokens only.
        storedPhone(r.contact.phone)!.national,
        r.contact.email.slice(0, r.contact.email.indexOf('@')),
        // The contact id links a person across records (contact pages): a keyed token only.
        r.contact.id,
      ]).flatMap((v) => [v, Buffer.from(v).toString('base64'), Buffer.from(v).toString('hex'), encodeURIComponent(v)]);
      for (const needle of needles) expect(all, needle).not.toContain(needle.toLowerCase());
      if (kind.dialect === 'sqlite')
        store = await openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account: ACCOUNT });
    });
  });
});

describe('the index on a PostgreSQL server its replicas share', () => {
  // Transactions at once need a server (PGlite has one session): CI installs PostgreSQL (.ci/run).
  // The writer's number: an account's, or one whose account row is gone (a replica still on an older secret
  // writes on under its number after a change of secret emptied `accounts`, or its account was pruned).
  it.skipIf(!postgresBinaries() && !process.env.CI).each([
    ['an account', false],
    ['a number no account holds any more', true],
  ])(
    'empties itself for a new secret once another replica’s write under way ends, without meeting its rows (%s)',
    async (_, orphaned) => {
      const server = await startPostgres({ port: 5646 });
      const target = { kind: 'postgres' as const, url: server.url, poolMax: 2, ssl: false };
      const store = await openIndexStore({ target, keys: blindKeys(SECRET), account: ACCOUNT });
      let other: IndexStore | null = null;
      try {
        await store.upsert(RECORDS, '2026-11-20T00:00:00.000Z');
        const { id } = await store.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow();
        const { token } = await store.db
          .selectFrom('contact_tokens')
          .select('token')
          .where('kind', '=', 'name')
          .executeTakeFirstOrThrow();
        expect((await store.db.selectFrom('rollups').select('account').execute()).length).toBeGreaterThan(0);
        // Its rows stay, and its writer writes on (before, the open did not wait for such a number's writer).
        if (orphaned) await store.db.deleteFrom('accounts').where('id', '=', id).execute();
        // Another replica's write, as a sync step writes: its account's lock, a name token (its count's row
        // locked by the trigger), then the roll-ups. Deleting the rows meanwhile took the roll-ups' rows
        // first, then waited for the count's: one of the two was rolled back as a deadlock.
        let wrote!: () => void;
        const written = new Promise<void>((resolve) => (wrote = resolve));
        let goOn!: () => void;
        const goneOn = new Promise<void>((resolve) => (goOn = resolve));
        const writer = store.db.transaction().execute(async (trx) => {
          await lockIndexWrites(trx, id);
          await trx.insertInto('contact_tokens').values({ account: id, kind: 'name', token, id: 'pay_new' }).execute();
          wrote();
          await goneOn;
          await sql`update rollups set account = account where account = ${id}`.execute(trx);
        });
        await Promise.race([written, writer]);
        const opening = openIndexStore({ target, keys: blindKeys(SECRET.replace('a', 'b')), account: ACCOUNT });
        // The open waits for the write: for that account's lock (dialect.ts: 0x43430001, the account), having
        // touched none of its rows.
        let waits: { locktype: string; key: string }[] = [];
        for (let waited = 0; !waits.length && waited < 10_000; waited += 50) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          waits = (
            await sql<{ locktype: string; key: string }>`select locktype,
                coalesce(classid::text || ':' || objid::text, '') as key from pg_locks where not granted`.execute(
              store.db,
            )
          ).rows;
        }
        goOn();
        const [write, opened] = await Promise.allSettled([writer, opening]);
        if (opened.status === 'fulfilled') other = opened.value;
        // Neither rolled back (before: "deadlock detected", the open's).
        const failure = (settled: PromiseSettledResult<unknown>) =>
          settled.status === 'rejected' ? String(settled.reason) : null;
        expect([failure(write), failure(opened)]).toEqual([null, null]);
        expect(waits).toEqual([{ locktype: 'advisory', key: `${0x43430001}:${id}` }]);
        expect(other!.opened).toBe('rebuilt');
        for (const table of ['collections', 'contact_tokens', 'name_counts', 'rollups'] as const) {
          const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(other!.db);
          expect([table, Number(rows[0]!.n)]).toEqual([table, 0]);
        }
        // One account, a new one: a replica still on the old secret writes under the old id, never this one's.
        const accounts = await other!.db.selectFrom('accounts').select('id').execute();
        expect(accounts.length).toBe(1);
        expect(accounts[0]!.id).toBeGreaterThan(id);
        // It writes again with the new secret, and its name counts follow.
        await other!.upsert(RECORDS, '2026-11-21T00:00:00.000Z');
        expect(await other!.indexedCount()).toBe(4);
        const { rows } = await sql<{ n: number }>`select count(*) as n from name_counts`.execute(other!.db);
        expect(Number(rows[0]!.n)).toBeGreaterThan(0);
      } finally {
        await other?.close();
        await store.close();
        await server.stop();
      }
    },
    60_000,
  );
});
