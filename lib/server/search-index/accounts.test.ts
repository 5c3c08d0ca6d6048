import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaults, filterSchema } from '@/lib/api/list-state';
import { collectionSchema } from '@/lib/api/schemas';
import { sampleCollection } from '@/test/samples';
import { storeKinds } from '@/test/stores';
import { blindKeys } from './shared/blind';
import { createQueries } from './read';
import { openIndexStore, type IndexStore } from './store';

/**
 * Issue 33, an index that survives a change of address: an account is named by its key (or INDEX_ACCOUNT),
 * an index kept under the name an older version gave it (its address and key) is carried over with its
 * sealed contacts still readable, and accounts no replica opened for long are pruned.
 */
const keys = blindKeys('a-test-secret-that-is-long-enough-0123456789');
const KEY = 'sk_live_account_key';
const DAY = 86_400_000;
const noFilters = defaults(filterSchema);
const record = (n: number, email: string) =>
  collectionSchema.parse(
    sampleCollection({
      id: `pay_acct${n}`,
      contact: { id: `contact_${n}`, firstName: 'Amara', lastName: `Okafor${n}`, email, phone: '+234 803 123 4567' },
    }),
  );

let dir: string;
const opened: IndexStore[] = [];

describe.each(storeKinds())('accounts on $name', (kind) => {
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'accounts-'));
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close().catch(() => {});
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });
  const open = async (account: string, options: { formerAccounts?: string[]; clock?: () => number } = {}) => {
    const store = await openIndexStore({ target: kind.target(dir), keys, account, ...options });
    opened.push(store);
    return store;
  };

  it('names an account by its key or its label, never by its address', () => {
    expect(keys.accountKey({ apiKey: KEY })).toBe(keys.accountKey({ apiKey: KEY, label: null }));
    expect(keys.accountKey({ apiKey: KEY })).not.toBe(keys.accountKey({ apiKey: 'sk_other' }));
    // A label names it whatever the key: a rotated key keeps the index.
    expect(keys.accountKey({ apiKey: KEY, label: 'acme' })).toBe(keys.accountKey({ apiKey: 'sk_new', label: 'acme' }));
    expect(keys.addressedAccountKey('http://127.0.0.1:4010', KEY)).not.toBe(
      keys.addressedAccountKey('http://127.0.0.1:4011', KEY),
    );
  });

  it('carries an index kept under its address-bound name over, its sealed contacts still open', async () => {
    const former = keys.addressedAccountKey('http://127.0.0.1:4010', KEY);
    const before = await open(former);
    await before.upsert([record(1, 'amara.okafor1@example.com')], '2026-11-20T00:00:00.000Z');
    await before.close();

    const after = await open(keys.accountKey({ apiKey: KEY }), { formerAccounts: [former] });
    expect(after.opened).toBe('existing');
    expect(after.account).toBe(before.account);
    expect(await after.db.selectFrom('accounts').select('key').execute()).toEqual([
      { key: keys.accountKey({ apiKey: KEY }) },
    ]);
    const queries = createQueries(after);
    const found = await queries.search('amara.okafor1@example.com', noFilters, 1, 10);
    expect(found.data.map((r) => [r.id, r.contact.firstName, r.contact.lastName])).toEqual([
      ['pay_acct1', 'Amara', 'Okafor1'],
    ]);
    // New rows are sealed the same way, and read back.
    await after.upsert([record(2, 'amara.okafor2@example.com')], '2026-11-21T00:00:00.000Z');
    const both = await queries.list(noFilters, 1, 10);
    expect(both.data.map((r) => r.contact.lastName).sort()).toEqual(['Okafor1', 'Okafor2']);

    // Opened again (another replica, a restart): the same account, nothing carried twice.
    const again = await open(keys.accountKey({ apiKey: KEY }), { formerAccounts: [former] });
    expect(again.account).toBe(after.account);
    expect((await createQueries(again).list(noFilters, 1, 10)).count).toBe(2);
  });

  it('prunes the rows of accounts no replica opened for the retention, and keeps the rest', async () => {
    let now = Date.parse('2026-10-01T00:00:00Z');
    const clock = () => now;
    const gone = await open('acct_gone', { clock });
    await gone.upsert([record(3, 'gone@example.com')], '2026-10-01T00:00:00.000Z');
    now += 20 * DAY;
    const recent = await open('acct_recent', { clock });
    await recent.upsert([record(4, 'recent@example.com')], '2026-10-21T00:00:00.000Z');
    now += 11 * DAY;
    const current = await open('acct_current', { clock });
    await current.upsert([record(5, 'current@example.com')], '2026-11-01T00:00:00.000Z');

    expect(await current.pruneAccounts(30)).toBe(1);
    const left = async (table: 'collections' | 'collection_details' | 'contact_tokens' | 'rollups') =>
      (await current.db.selectFrom(table).select('account').distinct().execute()).map((r) => r.account).sort();
    for (const table of ['collections', 'collection_details', 'contact_tokens', 'rollups'] as const)
      expect(await left(table), table).toEqual([recent.account, current.account].sort());
    expect((await current.db.selectFrom('accounts').select('key').orderBy('key').execute()).map((a) => a.key)).toEqual([
      'acct_current',
      'acct_recent',
    ]);
    expect((await createQueries(recent).list(noFilters, 1, 10)).count).toBe(1);
    expect(await current.pruneAccounts(30)).toBe(0);
  });

  it('keeps an account its replica syncs however long ago it was opened, and prunes it once none has for the retention', async () => {
    let now = Date.parse('2026-10-01T00:00:00Z');
    const clock = () => now;
    const live = await open('acct_live', { clock });
    await live.upsert([record(6, 'live@example.com')], '2026-10-01T00:00:00.000Z');
    const other = await open('acct_other', { clock });
    // 40 days without a restart: its sync renews the lease all along.
    for (let day = 1; day <= 40; day++) {
      now += DAY;
      expect(await live.lease('replica-live', 30_000)).toBe(true);
      expect(await other.pruneAccounts(30)).toBe(0);
    }
    expect((await createQueries(live).list(noFilters, 1, 10)).count).toBe(1);
    // Its last replica stopped: the retention counts from its last day in use, not from its open.
    now += 29 * DAY;
    expect(await other.pruneAccounts(30)).toBe(0);
    now += 2 * DAY;
    expect(await other.pruneAccounts(30)).toBe(1);
    expect(await other.db.selectFrom('collections').select('id').where('account', '=', live.account).execute()).toEqual(
      [],
    );
  });

  it("never gives a former secret's account number to the new one, and prunes what a replica still on the former secret wrote", async () => {
    const before = await open('acct_same');
    await before.upsert([record(11, 'before@example.com')], '2026-11-01T00:00:00.000Z');
    // The operator changes INDEX_SECRET: the first replica on the new one empties the index and starts again.
    const after = await openIndexStore({
      target: kind.target(dir),
      keys: blindKeys('another-test-secret-that-is-long-enough-9876543210'),
      account: 'acct_same',
    });
    opened.push(after);
    expect(after.opened).toBe('rebuilt');
    expect(after.account).toBeGreaterThan(before.account);
    // A replica still on the former secret writes on until its health check sees the change.
    await before.upsert([record(12, 'stale@example.com')], '2026-11-02T00:00:00.000Z');
    await after.upsert([record(13, 'after@example.com')], '2026-11-02T00:00:00.000Z');
    expect((await createQueries(after).list(noFilters, 1, 10)).data.map((r) => r.id)).toEqual(['pay_acct13']);
    expect(await after.pruneAccounts(30)).toBe(1);
    expect(await after.db.selectFrom('collections').select('id').execute()).toEqual([{ id: 'pay_acct13' }]);
    expect((await after.db.selectFrom('rollups').select('account').distinct().execute()).map((r) => r.account)).toEqual(
      [after.account],
    );
  });

  it('prunes the rows of an account that no longer exists (a replica on a former secret wrote them after the index was emptied)', async () => {
    const current = await open('acct_current');
    await current.upsert([record(8, 'current@example.com')], '2026-11-01T00:00:00.000Z');
    const former = await open('acct_former');
    await former.upsert([record(9, 'former@example.com')], '2026-11-01T00:00:00.000Z');
    // The index emptied for a new secret took the account's row; the replica still on the old secret writes
    // on under its id until its health check sees the change.
    await current.db.deleteFrom('accounts').where('id', '=', former.account).execute();
    await former.upsert([record(10, 'former2@example.com')], '2026-11-02T00:00:00.000Z');
    expect(await former.lease('replica-former', 30_000)).toBe(true);

    expect(await current.pruneAccounts(30)).toBe(1);
    for (const table of [
      'collections',
      'collection_details',
      'contact_tokens',
      'name_words',
      'rollups',
      'collection_history',
      'sync_state',
      'sync_lease',
    ] as const)
      expect(
        await current.db.selectFrom(table).select('account').where('account', '=', former.account).execute(),
        table,
      ).toEqual([]);
    expect((await createQueries(current).list(noFilters, 1, 10)).count).toBe(1);
    expect(await current.pruneAccounts(30)).toBe(0);
  });
});
