import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collectionSchema, type Collection } from '@/lib/api/schemas';
import { sampleCollection } from '@/test/samples';
import { storeKinds } from '@/test/stores';
import { blindKeys } from '../shared/blind';
import { createQueries } from '../read';
import { defaults, filterSchema, type Filters } from '@/lib/api/list-state';
import { rebuildRollups } from './rollups';
import { bucketMiddleMs, durationBucket, histogramMedianMs, periodsCovering, type PeriodRun } from '../shared/periods';
import { openIndexStore, type IndexStore } from '../store';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
let dir: string;
let store: IndexStore;

const record = (
  id: string,
  o: { status: string; currency: string; value: number; createdAt: string; completedAt?: string | null },
): Collection =>
  collectionSchema.parse(
    sampleCollection({
      id,
      status: o.status,
      amount: { value: o.value, currency: o.currency },
      createdAt: o.createdAt,
      updatedAt: o.completedAt ?? o.createdAt,
      completedAt: o.completedAt ?? null,
    }),
  );

/** The roll-up tables as rows, zero rows dropped, in a fixed order. */
async function snapshot(s: IndexStore) {
  const rollups = await s.db
    .selectFrom('rollups')
    .selectAll()
    .where('account', '=', s.account)
    .where((eb) => eb.or([eb('created_count', '!=', 0), eb('completed_count', '!=', 0)]))
    .orderBy('grain')
    .orderBy('period')
    .orderBy('currency')
    .orderBy('status')
    .execute();
  const durations = await s.db
    .selectFrom('rollup_durations')
    .selectAll()
    .where('account', '=', s.account)
    .where('count', '!=', 0)
    .orderBy('grain')
    .orderBy('period')
    .orderBy('currency')
    .orderBy('bucket')
    .execute();
  return { rollups, durations };
}

describe('completion-time buckets', () => {
  it('give a median within 1 % of the true one', () => {
    for (const ms of [1_500, 60_000, 3_600_000, 5 * 86_400_000, 400 * 86_400_000]) {
      const middle = bucketMiddleMs(durationBucket(ms));
      expect(Math.abs(middle - ms) / ms).toBeLessThan(0.01);
    }
  });

  it('read the median of a histogram from the bucket holding the middle record', () => {
    const minutes = (n: number) => durationBucket(n * 60_000);
    expect(histogramMedianMs([])).toBeNull();
    const median = histogramMedianMs([
      [minutes(5), 2],
      [minutes(60), 1],
      [minutes(600), 2],
    ]);
    expect(Math.abs(median! - 3_600_000) / 3_600_000).toBeLessThan(0.01);
  });
});

describe('the periods covering a range of days', () => {
  const covers = (run: PeriodRun, day: string) =>
    run.grain === 'a' ||
    (run.grain === 'd' && run.lo <= day && day <= run.hi) ||
    (run.grain === 'm' && run.lo <= day.slice(0, 7) && day.slice(0, 7) <= run.hi) ||
    (run.grain === 'y' && run.lo <= day.slice(0, 4) && day.slice(0, 4) <= run.hi);
  const dayOf = (n: number) => new Date(Date.UTC(1995, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

  it('count every day of the range once and no day outside it, in a handful of runs', () => {
    const end = fc.option(fc.integer({ min: 0, max: 365 * 40 }), { nil: undefined });
    fc.assert(
      fc.property(end, end, fc.integer({ min: 0, max: 365 * 40 }), (a, b, probe) => {
        const [from, to] = [a === undefined ? undefined : dayOf(a), b === undefined ? undefined : dayOf(b)];
        const runs = periodsCovering(from, to);
        const day = dayOf(probe);
        const inside = (!from || from <= day) && (!to || day <= to);
        expect(runs.filter((run) => covers(run, day)).length).toBe(inside ? 1 : 0);
        expect(runs.length).toBeLessThanOrEqual(5);
      }),
      { numRuns: 2_000 },
    );
  });

  it('read whole months and years in their own grain, and odd days by day', () => {
    expect(periodsCovering()).toEqual([{ grain: 'a', lo: '', hi: '' }]);
    expect(periodsCovering('2026-03-05', '2026-03-09')).toEqual([{ grain: 'd', lo: '2026-03-05', hi: '2026-03-09' }]);
    expect(periodsCovering('2026-02-01', '2026-02-28')).toEqual([{ grain: 'm', lo: '2026-02', hi: '2026-02' }]);
    expect(periodsCovering('2024-01-01', '2025-12-31')).toEqual([{ grain: 'y', lo: '2024', hi: '2025' }]);
    expect(periodsCovering('2024-11-15', '2026-02-10')).toEqual([
      { grain: 'd', lo: '2024-11-15', hi: '2024-11-30' },
      { grain: 'd', lo: '2026-02-01', hi: '2026-02-10' },
      { grain: 'm', lo: '2024-12', hi: '2024-12' },
      { grain: 'm', lo: '2026-01', hi: '2026-01' },
      { grain: 'y', lo: '2025', hi: '2025' },
    ]);
    expect(periodsCovering('2026-05-01')).toEqual([
      { grain: 'm', lo: '2026-05', hi: '2026-12' },
      { grain: 'y', lo: '2027', hi: '9999' },
    ]);
    expect(periodsCovering('2026-03-02', '2026-03-01')).toEqual([]);
  });
});

describe.each(storeKinds())('on $name', (kind) => {
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rollups-test-'));
    store = await openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account: 'acct_test' });
  });
  afterEach(async () => {
    await store.close();
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('roll-ups', () => {
    it('are recounted for every account of a file after a new version, not only the first one opened', async () => {
      const open = (account: string) => openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account });
      const at = (i: number) => new Date(Date.UTC(2025, 0, 1 + i, 10)).toISOString();
      // The file's other account (the test's own store) holds a row of its own.
      await store.upsert(
        [record('pay_one', { status: 'pending', currency: 'NGN', value: 10, createdAt: at(5) })],
        '2026-11-01T00:00:00.000Z',
      );
      const two = await open('acct_two');
      await two.upsert(
        [0, 1].map((i) => record(`pay_two_${i}`, { status: 'pending', currency: 'NGN', value: 10, createdAt: at(i) })),
        '2026-11-01T00:00:00.000Z',
      );
      // As a file left by an older version: this account's roll-ups missing, the version marked for the file
      // when another account (the test's own) was recounted.
      await two.db.deleteFrom('rollups').where('account', '=', two.account).execute();
      await two.db.deleteFrom('index_meta').where('key', '=', `rollups:${two.account}`).execute();
      await two.db
        .insertInto('index_meta')
        .values({ key: 'rollups', value: '2' })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: '2' }))
        .execute();
      await two.close();
      const again = await open('acct_two');
      try {
        expect(await again.indexedCount()).toBe(2);
        expect(
          (await createQueries(again).list({ ...defaults(filterSchema), createdFrom: '2025-01-01' }, 1, 10)).count,
        ).toBe(2);
      } finally {
        await again.close();
      }
    });

    it("count a list's rows as its rows do, for every filter they can answer", async () => {
      // Days across two years' ends and a leap February; statuses that change, completions that move or go,
      // a collection opened by id (never counted), and rows a scan stops seeing.
      const statuses = ['pending', 'completed', 'expired', 'refunded'];
      const currencies = ['NGN', 'EUR', 'KES'];
      const day = (i: number) => new Date(Date.UTC(2024, 10, 20) + ((i * 37) % 500) * 86_400_000);
      const made = (i: number, round: number) => {
        const created = day(i + round * 3);
        const status = statuses[(i + round) % statuses.length]!;
        return record(`pay_${i}`, {
          status,
          currency: currencies[i % currencies.length]!,
          value: 100 + i,
          createdAt: created.toISOString(),
          completedAt:
            status === 'pending' ? null : new Date(created.getTime() + ((i * 7) % 90) * 86_400_000).toISOString(),
        });
      };
      await store.upsert(
        Array.from({ length: 120 }, (_, i) => made(i, 0)),
        '2026-11-01T00:00:00.000Z',
      );
      await store.saveState({ scan_started_at: '2026-11-02T00:00:00.000Z' });
      await store.upsert(
        Array.from({ length: 100 }, (_, i) => made(i, i % 2)),
        '2026-11-02T00:00:00.000Z',
      );
      await store.removeUnseen('2026-11-02T00:00:00.000Z');
      await store.upsert(
        [
          collectionSchema.parse(
            sampleCollection({ id: 'pay_opened', type: 'standalone', createdAt: day(3).toISOString() }),
          ),
        ],
        '2026-11-03T00:00:00.000Z',
      );
      const queries = createQueries(store);
      const none = defaults(filterSchema);
      const ranges: [string | undefined, string | undefined][] = [
        [undefined, undefined],
        ['2025-02-01', undefined],
        [undefined, '2025-02-28'],
        ['2024-12-15', '2025-01-10'],
        ['2024-11-20', '2026-03-31'],
        ['2025-01-01', '2025-12-31'],
        ['2025-03-03', '2025-03-03'],
        ['2025-06-30', '2026-01-01'],
      ];
      const cases: Partial<Filters>[] = [
        {},
        { status: ['pending'] },
        { status: ['completed', 'refunded'], currency: ['EUR'] },
        { currency: ['KES', 'NGN'] },
        ...ranges.flatMap(([from, to]) => [
          { createdFrom: from, createdTo: to },
          { createdFrom: from, createdTo: to, status: ['expired'] },
          { completedFrom: from ?? '2024-01-01', completedTo: to },
          { completedFrom: from, completedTo: to ?? '2030-01-01', currency: ['NGN'], status: ['completed'] },
        ]),
      ];
      for (const filters of cases) {
        const all = await queries.list({ ...none, ...filters }, 1, 500);
        expect({ filters, count: all.count }).toEqual({ filters, count: all.data.length });
      }
      expect((await queries.list(none, 1, 500)).count).toBe(100);
    });

    it('follow inserts, changes of status, amount, currency and day, and removals', async () => {
      const statuses = ['pending', 'completed', 'expired', 'on_hold'];
      const change = fc.record({
        id: fc.integer({ min: 1, max: 12 }),
        status: fc.constantFrom(...statuses),
        currency: fc.constantFrom('NGN', 'EUR'),
        value: fc.integer({ min: 1, max: 100_000 }),
        day: fc.integer({ min: 1, max: 60 }),
        minutes: fc.integer({ min: 0, max: 5_000 }),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(change, { maxLength: 8 }), { minLength: 1, maxLength: 6 }),
          async (rounds) => {
            const run = Math.random().toString(36).slice(2);
            const s = await openIndexStore({
              // A file each run on SQLite; on PostgreSQL an account each run in one database.
              target:
                kind.dialect === 'sqlite' ? { kind: 'sqlite', path: join(dir, `p-${run}.sqlite`) } : kind.target(dir),
              keys: blindKeys(SECRET),
              account: `acct_p_${run}`,
            });
            try {
              for (const [round, changes] of rounds.entries()) {
                const seenAt = new Date(Date.UTC(2026, 10, 1, 0, round)).toISOString();
                await s.upsert(
                  changes.map((c) => {
                    const created = Date.UTC(2026, 8, c.day, 10);
                    return record(`pay_${c.id}`, {
                      ...c,
                      createdAt: new Date(created).toISOString(),
                      completedAt:
                        c.status === 'completed' ? new Date(created + c.minutes * 60_000).toISOString() : null,
                    });
                  }),
                  seenAt,
                );
                // Every other round, what that round did not see leaves the index (a completed scan).
                if (round % 2) await s.removeUnseen(seenAt);
              }
              const maintained = await snapshot(s);
              await rebuildRollups(s.db, s.account);
              expect(maintained).toEqual(await snapshot(s));
            } finally {
              await s.close();
            }
          },
        ),
        { numRuns: 40 },
      );
    });

    it('are computed from the rows of an index written before they existed', async () => {
      await store.upsert(
        [
          record('pay_1', { status: 'pending', currency: 'NGN', value: 500, createdAt: '2026-11-01T10:00:00.000Z' }),
          record('pay_2', {
            status: 'completed',
            currency: 'NGN',
            value: 700,
            createdAt: '2026-11-02T10:00:00.000Z',
            completedAt: '2026-11-03T10:00:00.000Z',
          }),
        ],
        '2026-11-20T00:00:00.000Z',
      );
      const expected = await snapshot(store);
      await store.db.deleteFrom('rollups').execute();
      await store.db
        .deleteFrom('index_meta')
        .where('key', 'in', ['rollups', `rollups:${store.account}`])
        .execute();
      await store.close();
      store = await openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account: 'acct_test' });
      expect(await snapshot(store)).toEqual(expected);
    });
  });

  describe('overview', () => {
    const NOW = Date.parse('2026-11-23T12:00:00.000Z');

    beforeEach(async () => {
      await store.upsert(
        [
          // In the last 7 days (17–23 Nov).
          record('pay_1', { status: 'pending', currency: 'NGN', value: 1_000, createdAt: '2026-11-22T09:00:00.000Z' }),
          record('pay_2', {
            status: 'completed',
            currency: 'NGN',
            value: 2_000,
            createdAt: '2026-11-20T09:00:00.000Z',
            completedAt: '2026-11-20T10:00:00.000Z',
          }),
          record('pay_3', {
            status: 'completed',
            currency: 'NGN',
            value: 4_000,
            createdAt: '2026-11-12T09:00:00.000Z',
            completedAt: '2026-11-18T09:00:00.000Z',
          }),
          record('pay_4', { status: 'pending', currency: 'EUR', value: 300, createdAt: '2026-11-21T09:00:00.000Z' }),
          // In the 7 days before (10–16 Nov).
          record('pay_5', {
            status: 'completed',
            currency: 'NGN',
            value: 8_000,
            createdAt: '2026-11-10T09:00:00.000Z',
            completedAt: '2026-11-15T09:00:00.000Z',
          }),
          record('pay_6', { status: 'expired', currency: 'NGN', value: 16_000, createdAt: '2025-01-01T00:00:00.000Z' }),
        ],
        '2026-11-23T00:00:00.000Z',
      );
    });

    it('counts every status per currency over the whole account, never summing currencies', async () => {
      const o = await createQueries(store).overview('7d', NOW);
      expect(o.range).toEqual({ from: '2026-11-17', to: '2026-11-23' });
      expect(o.currencies.map((c) => c.currency)).toEqual(['NGN', 'EUR']);
      const ngn = o.currencies[0]!;
      expect(ngn.byStatus).toEqual([
        { status: 'completed', count: 3, amount: 14_000 },
        { status: 'expired', count: 1, amount: 16_000 },
        { status: 'pending', count: 1, amount: 1_000 },
      ]);
      expect(o.currencies[1]!.byStatus).toEqual([{ status: 'pending', count: 1, amount: 300 }]);
    });

    it('compares completed in the range with the range before it, by completion day', async () => {
      const ngn = (await createQueries(store).overview('7d', NOW)).currencies[0]!;
      expect(ngn.completed).toEqual({ count: 2, amount: 6_000 });
      expect(ngn.completedPrevious).toEqual({ count: 1, amount: 8_000 });
      // Created in the range: pay_1 and pay_2, one of them completed.
      expect(ngn.created).toBe(2);
      expect(ngn.completionRate).toBe(0.5);
      // 1 h and 6 days: the median of two is read from the lower middle.
      expect(Math.abs(ngn.medianTimeToCompleteMs! - 3_600_000) / 3_600_000).toBeLessThan(0.01);
    });

    it('lists created and completed amounts per day, per currency and status', async () => {
      const o = await createQueries(store).overview('7d', NOW);
      expect(o.bucket).toBe('day');
      expect(o.perDay).toEqual([
        { date: '2026-11-18', currency: 'NGN', status: 'completed', created: 0, completedAmount: 4_000 },
        { date: '2026-11-20', currency: 'NGN', status: 'completed', created: 1, completedAmount: 2_000 },
        { date: '2026-11-21', currency: 'EUR', status: 'pending', created: 1, completedAmount: 0 },
        { date: '2026-11-22', currency: 'NGN', status: 'pending', created: 1, completedAmount: 0 },
      ]);
    });

    it("reads one currency's days for its detail, or none for the table alone, with every currency's figures", async () => {
      const queries = createQueries(store);
      const every = await queries.overview('7d', NOW);
      const ngn = await queries.overview('7d', NOW, { currency: 'NGN' });
      expect(ngn.perDay).toEqual(every.perDay.filter((d) => d.currency === 'NGN'));
      expect(ngn.currencies).toEqual(every.currencies);
      const none = await queries.overview('7d', NOW, 'none');
      expect(none.perDay).toEqual([]);
      expect(none.currencies).toEqual(every.currencies);
    });

    it('reads all time by month, from the first month with a record, with no previous range', async () => {
      const o = await createQueries(store).overview('all', NOW);
      expect(o.bucket).toBe('month');
      expect(o.range).toEqual({ from: '2025-01-01', to: '2026-11-23' });
      // Charted from the first to the last day anything happened.
      expect(o.chart).toEqual({ from: '2025-01-01', to: '2026-11-22' });
      const ngn = o.currencies[0]!;
      expect(ngn.completed).toEqual({ count: 3, amount: 14_000 });
      expect(ngn.completedPrevious).toBeNull();
      expect(o.perDay.filter((d) => d.currency === 'NGN' && d.date === '2026-11-01')).toHaveLength(2);
    });

    it('draws all time by day where its data spans a few weeks, ending at the last activity, not today', async () => {
      // Without the one old record (its roll-ups rebuilt from the rows when the store opens again).
      await store.db.deleteFrom('collections').where('id', '=', 'pay_6').execute();
      await store.db.deleteFrom('rollups').execute();
      await store.db
        .deleteFrom('index_meta')
        .where('key', 'in', ['rollups', `rollups:${store.account}`])
        .execute();
      await store.close();
      store = await openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account: 'acct_test' });
      // Every record of this account is from November 2026; seen from a year later, all time is still those days.
      const later = Date.parse('2027-12-01T12:00:00.000Z');
      const o = await createQueries(store).overview('all', later);
      expect(o.bucket).toBe('day');
      expect(o.range).toEqual({ from: '2026-11-10', to: '2027-12-01' });
      expect(o.chart).toEqual({ from: '2026-11-10', to: '2026-11-22' });
      expect(o.latestActivity).toBe('2026-11-22');
      expect(o.perDay.filter((d) => d.currency === 'NGN').map((d) => d.date)).toEqual([
        '2026-11-10',
        '2026-11-12',
        '2026-11-15',
        '2026-11-18',
        '2026-11-20',
        '2026-11-22',
      ]);
      // The last 30 days of that later date hold nothing: the range is drawn as it is, by day.
      const month = await createQueries(store).overview('30d', later);
      expect([month.bucket, month.chart, month.perDay]).toEqual(['day', month.range, []]);
    });

    it('reads all time by year when it spans more than ten years', async () => {
      await store.upsert(
        [record('pay_7', { status: 'pending', currency: 'NGN', value: 1, createdAt: '1990-06-01T00:00:00.000Z' })],
        '2026-11-23T00:00:00.000Z',
      );
      const o = await createQueries(store).overview('all', NOW);
      expect(o.bucket).toBe('year');
      expect(o.range.from).toBe('1990-06-01');
      expect(o.perDay.find((d) => d.date === '1990-01-01')).toMatchObject({ currency: 'NGN', created: 1 });
      expect(o.perDay.filter((d) => d.currency === 'NGN' && d.date === '2026-01-01').length).toBeGreaterThan(0);
    });

    it('moves a record between statuses when it completes', async () => {
      await store.upsert(
        [
          record('pay_1', {
            status: 'completed',
            currency: 'NGN',
            value: 1_000,
            createdAt: '2026-11-22T09:00:00.000Z',
            completedAt: '2026-11-23T09:00:00.000Z',
          }),
        ],
        '2026-11-23T10:00:00.000Z',
      );
      const ngn = (await createQueries(store).overview('7d', NOW)).currencies[0]!;
      expect(ngn.byStatus.find((s) => s.status === 'pending')).toBeUndefined();
      expect(ngn.completed).toEqual({ count: 3, amount: 7_000 });
      expect(ngn.completionRate).toBe(1);
    });
  });
});
