import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaults, filterSchema, type Filters } from '@/lib/api/list-state';
import { collectionSchema } from '@/lib/api/schemas';
import { sampleCollection } from '@/test/samples';
import { storeKinds } from '@/test/stores';
import { tagRows } from '@/test/tagged-rows';
import { blindKeys } from '../shared/blind';
import { openIndexStore, type IndexStore } from '../store';
import { createQueries } from '.';

/**
 * The `tag=` filter (section 16) on the index's list and search: the rows holding any of the tags, probed
 * row by row as a page walks its order, counted from the tagged ids; the other filters on top.
 */
const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const TAGS = 'app-account-of-the-test';
const none: Filters = defaults(filterSchema);
const ids = (n: number) => Array.from({ length: n }, (_, i) => `pay_f${String(i).padStart(3, '0')}`);

describe.each(storeKinds())('the tag filter on $name', (kind) => {
  let dir: string;
  let store: IndexStore;
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tag-filter-'));
    store = await openIndexStore({ target: kind.target(dir), keys: blindKeys(SECRET), account: 'acct_test' });
    await store.upsert(
      ids(60).map((id, i) =>
        collectionSchema.parse(
          sampleCollection({
            id,
            reference: `INV-${i}`,
            status: i % 2 ? 'pending' : 'completed',
            amount: { value: 1_000 + i, currency: 'NGN' },
            createdAt: new Date(Date.UTC(2026, 9, 1) + i * 3_600_000).toISOString(),
          }),
        ),
      ),
      '2026-11-01T00:00:00.000Z',
    );
    const tag = (name: string, of: string[], account = TAGS) => tagRows(store.db, account, name, of);
    // vip: every third row; late: the last ten; both overlap; a tag of another account and one on an id the
    // index does not hold are not counted.
    await tag(
      'vip',
      ids(60).filter((_, i) => i % 3 === 0),
    );
    await tag('late', ids(60).slice(50));
    await tag('vip', ids(60).slice(1, 5), 'another');
    await tag('vip', ['pay_gone']);
  });
  afterEach(async () => {
    await store.close();
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });

  const list = (filters: Partial<Filters>, page = 1, limit = 7) =>
    createQueries(store, {}, TAGS).list({ ...none, ...filters }, page, limit);

  it('lists the rows holding the tag, newest first, paged, with their count', async () => {
    const vip = ids(60)
      .filter((_, i) => i % 3 === 0)
      .reverse();
    const pages = await Promise.all([1, 2, 3].map((p) => list({ tag: ['VIP'] }, p)));
    expect(pages.map((p) => p.count)).toEqual([20, 20, 20]);
    expect(pages.flatMap((p) => p.data.map((r) => r.id))).toEqual(vip.slice(0, 21));
  });

  it('takes any of several tags, each row once, and the other filters on top', async () => {
    const any = await list({ tag: ['vip', 'late'] }, 1, 100);
    const expected = ids(60).filter((_, i) => i % 3 === 0 || i >= 50);
    expect(any.count).toBe(expected.length);
    expect(any.data.map((r) => r.id).sort()).toEqual(expected);
    const pending = await list({ tag: ['vip'], status: ['pending'], sort: 'amount' }, 1, 100);
    const odd = ids(60).filter((_, i) => i % 3 === 0 && i % 2 === 1);
    expect([pending.count, pending.data.map((r) => r.id)]).toEqual([odd.length, odd]);
  });

  it('narrows a search to the tag', async () => {
    const found = await createQueries(store, {}, TAGS).search('Okafor', { ...none, tag: ['late'] }, 1, 100);
    expect(found.count).toBe(10);
    expect(found.data.map((r) => r.id).sort()).toEqual(ids(60).slice(50));
  });

  it('hands a list state’s ids over a chunk at a time, newest first, each once, ties of one time too', async () => {
    // Ten more created at one instant: the chunks' bound is the time and the id.
    const tied = Array.from({ length: 10 }, (_, i) => `pay_tie${i}`);
    await store.upsert(
      tied.map((id) =>
        collectionSchema.parse(sampleCollection({ id, status: 'pending', createdAt: '2026-10-02T00:00:00.000Z' })),
      ),
      '2026-11-01T00:00:00.000Z',
    );
    const queries = createQueries(store, {}, TAGS);
    const state = { ...none, status: ['pending'] };
    const seen: string[] = [];
    let after: Awaited<ReturnType<typeof queries.ids>>['next'] = null;
    for (;;) {
      const chunk = await queries.ids(state, after, 7);
      seen.push(...chunk.ids);
      if (chunk.ids.length < 7) break;
      after = chunk.next;
    }
    const all = await list({ status: ['pending'] }, 1, 100);
    expect(seen).toEqual(all.data.map((r) => r.id));
    expect(new Set(seen).size).toBe(40);
  });

  it('finds nothing for a tag nobody holds', async () => {
    expect(await list({ tag: ['nobody'] })).toEqual({ data: [], count: 0 });
  });
});
