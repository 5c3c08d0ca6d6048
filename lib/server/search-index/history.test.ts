import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaults, filterSchema, type Filters } from '@/lib/api/list-state';
import { collectionSchema, type Collection } from '@/lib/api/schemas';
import { sampleCollection } from '@/test/samples';
import { storeKinds } from '@/test/stores';
import { blindKeys } from './shared/blind';
import { iso } from './shared/history';
import { createQueries } from './read';
import { openIndexStore, type IndexStore } from './store';

/**
 * A collection's history rebuilt from what the index saw (contract section 14), on both stores: nothing for
 * a record first seen, each change with its window, the contact only as "changed", nothing readable of a
 * contact in the table, pruned after its retention.
 */
const keys = blindKeys('a-test-secret-that-is-long-enough-0123456789');
const record = (overrides: Record<string, unknown> = {}): Collection =>
  collectionSchema.parse(sampleCollection({ id: 'pay_hist1', ...overrides }));
const T1 = '2026-11-24T10:02:00.000Z';
const T2 = '2026-11-24T10:04:00.000Z';
const T3 = '2026-11-24T10:06:00.000Z';

let dir: string;
let store: IndexStore;

describe('times as the index stores them', () => {
  it('keeps a time already written as toISOString writes it, and reads any other through a Date', () => {
    expect(iso('2026-11-28T06:09:46.029Z')).toBe('2026-11-28T06:09:46.029Z');
    expect(iso(null)).toBeNull();
    // Another offset, no milliseconds, or a day the fast path does not vouch for: the Date decides.
    expect(iso('2026-11-28T07:09:46.029+01:00')).toBe('2026-11-28T06:09:46.029Z');
    expect(iso('2026-11-28T06:09:46Z')).toBe('2026-11-28T06:09:46.000Z');
    expect(iso('2026-11-30T23:59:59.999Z')).toBe('2026-11-30T23:59:59.999Z');
    expect(iso('2026-11-28T24:00:00.000Z')).toBe(new Date('2026-11-28T24:00:00.000Z').toISOString());
    expect(iso('2026-02-29T10:00:00.000Z')).toBe(new Date('2026-02-29T10:00:00.000Z').toISOString());
    expect(() => iso('not a time')).toThrow(RangeError);
  });
});

describe.each(storeKinds())('history on $name', (kind) => {
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'history-'));
    store = await openIndexStore({ target: kind.target(dir), keys, account: 'acct_history' });
  });
  afterEach(async () => {
    await store.close();
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });
  const history = async (id = 'pay_hist1') => (await createQueries(store).history(id)).entries;

  it('keeps nothing for a record first seen, nor for one seen again unchanged', async () => {
    await store.upsert([record()], T1);
    await store.upsert([record()], T2);
    expect(await history()).toEqual([]);
    expect((await createQueries(store).history('pay_hist1')).since).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('keeps nothing for a record whose texts hold U+0000 seen again unchanged, stored with U+FFFD in its place', async () => {
    const odd = () =>
      record({ reference: 'ZN-\u0000', status: 'pending\u0000', amount: { value: 5, currency: 'NGN\u0000' } });
    await store.upsert([odd()], T1);
    await store.upsert([odd()], T2);
    expect(await history()).toEqual([]);
    const [hit] = (await createQueries(store).search('zn-', defaults(filterSchema), 1, 10)).data;
    expect([hit?.status, hit?.amount.currency]).toEqual(['pending\uFFFD', 'NGN\uFFFD']);
  });

  it('keeps what changed, when it was first seen changed and when the version before was last seen', async () => {
    await store.upsert([record()], T1);
    await store.upsert(
      [record({ status: 'completed', completedAt: '2026-11-24T10:03:00.000Z', updatedAt: '2026-11-24T10:03:00.000Z' })],
      T2,
    );
    expect(await history()).toEqual([
      {
        seenAt: T2,
        notSeenBefore: T1,
        changes: [
          { field: 'status', from: 'pending', to: 'completed' },
          { field: 'updatedAt', from: '2026-11-20T16:45:12.345Z', to: '2026-11-24T10:03:00.000Z' },
          { field: 'completedAt', from: null, to: '2026-11-24T10:03:00.000Z' },
        ],
      },
    ]);
  });

  it('tells each kind of change, the contact only as changed, newest first', async () => {
    await store.upsert([record()], T1);
    const changed = record({
      amount: { value: 90000, currency: 'NGN' },
      expiresIn: 60,
      payable: { enabled: false, methods: ['payment_link'], options: [{ url: 'https://pay.example/x' }] },
      followUp: { enabled: false, startAfter: 30, cadence: 'daily', channels: ['sms'], tone: 'firm' },
      metadata: [],
      type: 'standalone',
      contact: {
        id: 'contact_1',
        firstName: 'Zoe',
        lastName: 'Okafor-Bello',
        phone: '+234 801 999 0000',
        email: 'zoe.new@example.com',
      },
    });
    await store.upsert([changed], T2);
    await store.upsert([record({ ...changed, status: 'expired' })], T3);
    const [newest, first] = await history();
    expect(newest).toMatchObject({
      seenAt: T3,
      notSeenBefore: T2,
      changes: [{ field: 'status', from: 'pending', to: 'expired' }],
    });
    expect(first!.changes.map((c) => c.field)).toEqual([
      'amount',
      'expiresIn',
      'followUp',
      'payable',
      'lineItems',
      'type',
      'contact',
    ]);
    expect(first!.changes.find((c) => c.field === 'contact')).toEqual({ field: 'contact' });
    expect(first!.changes.find((c) => c.field === 'payable')).toEqual({
      field: 'payable',
      from: { enabled: true, methods: ['payment_link', 'virtual_account'], optionsCount: 0 },
      to: { enabled: false, methods: ['payment_link'], optionsCount: 1 },
    });
    expect(first!.changes.find((c) => c.field === 'lineItems')).toEqual({
      field: 'lineItems',
      from: { count: 1, totals: [{ currency: 'NGN', value: 150000 }] },
      to: { count: 0, totals: [] },
    });
    // Nothing readable of either contact in the history, or anywhere in the store.
    const stored = await kind.storedText(store.db as never, dir);
    for (const text of ['zoe.new@example.com', 'okafor-bello', '801 999', '8019990000', 'zoe@example.com'])
      expect(stored).not.toContain(text);
  });

  it('a row kept before snapshots is written once more with one, keeping no history for that, and compares what it has', async () => {
    await store.upsert([record()], T1);
    await store.db.updateTable('collection_details').set({ snapshot: null }).execute();
    await store.upsert([record({ expiresIn: 5 })], T2);
    expect(await history()).toEqual([]);
    const { snapshot } = await store.db.selectFrom('collection_details').select('snapshot').executeTakeFirstOrThrow();
    expect(snapshot).toContain('"expiresIn":5');
    await store.upsert([record({ expiresIn: 5, status: 'cancelled' })], T3);
    expect((await history())[0]!.changes.map((c) => c.field)).toEqual(['status']);
  });

  it('counts the status changes since a time by kind, and lists the collections of a kind', async () => {
    const ids = ['pay_h1', 'pay_h2', 'pay_h3'];
    await store.upsert(
      ids.map((id) => record({ id })),
      T1,
    );
    await store.upsert(
      [
        record({ id: 'pay_h1', status: 'completed', completedAt: T2 }),
        record({ id: 'pay_h2', status: 'completed', completedAt: T2 }),
        record({ id: 'pay_h3', status: 'expired' }),
      ],
      T2,
    );
    // pay_h2 is reopened, then completed again: still one collection of that kind.
    await store.upsert([record({ id: 'pay_h2', status: 'pending' })], T3);
    await store.upsert([record({ id: 'pay_h2', status: 'completed', completedAt: T3 })], '2026-11-24T10:08:00.000Z');
    const queries = createQueries(store);
    expect(await queries.statusChanges('2026-11-24T10:00Z')).toEqual([
      { from: 'pending', to: 'completed', count: 2 },
      { from: 'completed', to: 'pending', count: 1 },
      { from: 'pending', to: 'expired', count: 1 },
    ]);
    expect(await queries.statusChanges('2026-11-24T10:05Z')).toEqual([
      { from: 'completed', to: 'pending', count: 1 },
      { from: 'pending', to: 'completed', count: 1 },
    ]);
    const listed = async (filters: Partial<Filters>) =>
      (await queries.list({ ...defaults(filterSchema), ...filters }, 1, 10)).data.map((s) => s.id).sort();
    expect(await listed({ change: { from: 'pending', to: 'completed' }, changedSince: '2026-11-24T10:00Z' })).toEqual([
      'pay_h1',
      'pay_h2',
    ]);
    expect(await listed({ change: { from: 'pending', to: 'completed' }, changedSince: '2026-11-24T10:05Z' })).toEqual([
      'pay_h2',
    ]);
    expect(await listed({ change: { from: 'pending', to: 'expired' }, status: ['completed'] })).toEqual([]);
    expect(await listed({ changedSince: '2026-11-24T10:05Z' })).toEqual(['pay_h2']);
  });

  it('prunes what was first seen before its retention', async () => {
    const now = Date.parse('2027-11-25T00:00:00Z');
    const clocked = await openIndexStore({ target: kind.target(dir), keys, account: 'acct_history', clock: () => now });
    await clocked.upsert([record()], '2026-11-01T00:00:00.000Z');
    await clocked.upsert([record({ status: 'on_hold' })], '2026-11-02T00:00:00.000Z');
    await clocked.upsert([record({ status: 'pending' })], '2027-11-20T00:00:00.000Z');
    expect(await clocked.pruneHistory(365)).toBe(1);
    expect((await createQueries(clocked).history('pay_hist1')).entries.map((e) => e.seenAt)).toEqual([
      '2027-11-20T00:00:00.000Z',
    ]);
    await clocked.close();
  });
});
