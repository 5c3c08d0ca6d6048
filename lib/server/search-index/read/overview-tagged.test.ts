import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RANGES, type PerDayOf } from '@/lib/api/overview';
import { collectionSchema, type Collection } from '@/lib/api/schemas';
import { sampleCollection } from '@/test/samples';
import { storeKinds } from '@/test/stores';
import { tagRows } from '@/test/tagged-rows';
import { blindKeys } from '../shared/blind';
import { openIndexStore, type IndexStore } from '../store';
import { createQueries } from '.';

/**
 * The overview narrowed to some tags (`tag=`, section 16) is counted from the tagged rows (overview-tagged.ts):
 * it must say what the roll-ups say of the same rows. Every listed row tagged, it is the account's overview;
 * some of them tagged, it is the overview of an account holding only those (the others removed, the
 * roll-ups following).
 */
const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const TAGS = 'app-account-of-the-test';
const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const DAY = 86_400_000;
const CURRENCIES = ['NGN', 'EUR', 'USD'];
const STATUSES = ['pending', 'completed', 'expired', 'failed'];
const PER_DAY: PerDayOf[] = ['every', 'none', { currency: 'EUR' }];

/** 240 records over two years, some created in the last days, completed from seconds to weeks after. */
function records(): Collection[] {
  let seed = 7;
  const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  return Array.from({ length: 240 }, (_, i) => {
    const created = NOW - Math.floor((i < 60 ? next() * 100 : next() * 730) * DAY);
    const status = STATUSES[Math.floor(next() * STATUSES.length)]!;
    const completedAt =
      status === 'completed'
        ? new Date(Math.min(NOW, created + Math.floor(next() * 20 * DAY) + 500)).toISOString()
        : null;
    return collectionSchema.parse(
      sampleCollection({
        id: `pay_t${String(i).padStart(4, '0')}`,
        status,
        amount: { value: 100 + Math.floor(next() * 100_000), currency: CURRENCIES[i % 3]! },
        createdAt: new Date(created).toISOString(),
        updatedAt: completedAt ?? new Date(created).toISOString(),
        completedAt,
      }),
    );
  });
}

const tag = (store: IndexStore, name: string, ids: string[]) => tagRows(store.db, TAGS, name, ids);

async function overviews(store: IndexStore, tags: string[] = []) {
  const queries = createQueries(store, {}, TAGS);
  const all = [];
  for (const range of RANGES)
    for (const perDayOf of PER_DAY) all.push(await queries.overview(range, NOW, perDayOf, tags));
  return all;
}

describe.each(storeKinds())('a tagged overview on $name', (kind) => {
  let dir: string;
  let store: IndexStore;
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'overview-tagged-'));
    store = await openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account: 'acct_test' });
  });
  afterEach(async () => {
    await store.close();
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });

  it('of every row says what the roll-ups say, in every range and chart', async () => {
    const all = records();
    await store.upsert(all, '2026-11-23T00:00:00.000Z');
    await tag(
      store,
      'every',
      all.map((c) => c.id),
    );
    // Two tags on a row count it once.
    await tag(
      store,
      'twice',
      all.slice(0, 50).map((c) => c.id),
    );
    expect(await overviews(store, ['every', 'twice'])).toEqual(await overviews(store));
  });

  it('of some rows is the overview of an account holding only those', async () => {
    const all = records();
    await store.upsert(all, '2026-11-23T00:00:00.000Z');
    const kept = all.filter((_, i) => i % 4 !== 1);
    await tag(
      store,
      'vip',
      kept.map((c) => c.id),
    );
    // Another tag's rows and another account's tag of the same name are not counted.
    await tag(
      store,
      'other',
      all.map((c) => c.id),
    );
    await tagRows(store.db, 'another', 'vip', [all[1]!.id]);
    // Names are matched whatever their case.
    const tagged = await overviews(store, ['VIP']);
    // Seen again (changed: an unchanged record is marked seen only during a scan), the others removed.
    await store.upsert(
      kept.map((c) => ({ ...c, updatedAt: '2026-11-23T00:30:00.000Z' })),
      '2026-11-23T01:00:00.000Z',
    );
    await store.removeUnseen('2026-11-23T01:00:00.000Z');
    expect(tagged).toEqual(await overviews(store));
    expect(tagged[0]!.currencies.length).toBe(3);
  });

  it('of a tag nobody holds is empty, and its changes are the tagged rows’ only', async () => {
    const [a, b] = records().filter((c) => c.status === 'pending') as [Collection, Collection];
    await store.upsert([a, b], '2026-11-23T00:00:00.000Z');
    const done = (c: Collection) => ({ ...c, status: 'completed', completedAt: '2026-11-23T10:00:00.000Z' });
    await store.upsert([done(a), done(b)], '2026-11-23T10:00:00.000Z');
    await tag(store, 'one', [a.id]);
    const queries = createQueries(store, {}, TAGS);
    const nobody = await queries.overview('30d', NOW, 'every', ['nobody']);
    expect([nobody.currencies, nobody.perDay, nobody.latestActivity]).toEqual([[], [], null]);
    const since = '2026-11-23T00:00:00.000Z';
    expect(await queries.statusChanges(since)).toEqual([{ from: 'pending', to: 'completed', count: 2 }]);
    expect(await queries.statusChanges(since, ['one'])).toEqual([{ from: 'pending', to: 'completed', count: 1 }]);
    expect(await queries.statusChanges(since, ['nobody'])).toEqual([]);
  });
});
