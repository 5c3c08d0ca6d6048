import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaults, filterSchema } from '@/lib/api/list-state';
import { collectionSchema, type Collection } from '@/lib/api/schemas';
import { sampleCollection } from '@/test/samples';
import { storeKinds, type StoreKind } from '@/test/stores';
import { blindKeys } from '../shared/blind';
import { createQueries } from '../read';
import { openIndexStore, type IndexStore } from '../store';
import { createSync, isErrorState, type ListPage } from './sync';

/**
 * The sync against a fake upstream (an in-memory newest-first list that can
 * grow at its head, lose records and fail on purpose) and a fake clock: each
 * step's returned wait moves the clock, so pacing, Retry-After and backoff are
 * asserted exactly, with no timers.
 */
const SECRET = 'sync-test-secret-that-is-long-enough-012345';

function fakeUpstream(total: number) {
  let serial = 0;
  const make = (): Collection => {
    serial++;
    const created = new Date(Date.UTC(2026, 0, 1) + serial * 60_000).toISOString();
    const contact = {
      id: `contact_${serial}`,
      firstName: `Ågot${serial}`,
      lastName: `Nwachukwu-${serial}`,
      email: `customer.${serial}@example.org`,
      phone: `+234 803 ${String(serial).padStart(3, '0')} 7777`,
    };
    return collectionSchema.parse(
      sampleCollection({
        id: `pay_${serial}`,
        reference: `REF-${serial}`,
        createdAt: created,
        updatedAt: created,
        contact,
      }),
    );
  };
  let list: Collection[] = Array.from({ length: total }, make).reverse();
  const failures = new Map<number, { code: string; retryAfter?: number }[]>();
  const requests: { page: number; at: number }[] = [];
  return {
    clock: { now: 0 },
    requests,
    get list() {
      return list;
    },
    addAtHead(n: number) {
      const added = Array.from({ length: n }, make).reverse();
      list = [...added, ...list];
      return added;
    },
    remove(id: string) {
      list = list.filter((c) => c.id !== id);
    },
    failPage(page: number, ...errors: { code: string; retryAfter?: number }[]) {
      failures.set(page, [...(failures.get(page) ?? []), ...errors]);
    },
    failAlways(page: number, code: string) {
      failures.set(
        page,
        Array.from({ length: 1000 }, () => ({ code })),
      );
    },
    // A hand-over's abort (the third argument) is met by the tests that stall a read; an answered read
    // ignores it.
    readPage: (async (page: number, limit: number) => {
      requests.push({ page, at: upstream.clock.now });
      const error = failures.get(page)?.shift();
      if (error) throw error;
      const start = (page - 1) * limit;
      return {
        data: list.slice(start, start + limit),
        meta: { count: list.length, next: start + limit < list.length ? page + 1 : null },
      };
    }) as (page: number, limit: number, cancel?: AbortSignal) => Promise<ListPage>,
  };
}

let upstream: ReturnType<typeof fakeUpstream>;
let dir: string;
let store: IndexStore;
let kind: StoreKind;

/** The store, on a database whose clock is the fake clock (replicas' own clocks may be skewed against it). */
async function open() {
  return openIndexStore({
    target: kind.target(dir),
    keys: blindKeys(SECRET),
    account: 'acct_sync',
    // Asked at open too (when the account was opened, when its history began): before a test's upstream exists,
    // the real time.
    clock: () => upstream?.clock.now ?? Date.now(),
  });
}

/** A replica's sync; `skewMs`: how far its own clock is from the database's. */
function sync(owner = 'test', overrides: { rps?: number; pollMs?: number; s?: IndexStore; skewMs?: number } = {}) {
  return createSync({
    store: overrides.s ?? store,
    readPage: (page, limit, cancel) => upstream.readPage(page, limit, cancel),
    now: () => upstream.clock.now + (overrides.skewMs ?? 0),
    rps: overrides.rps ?? 5,
    pollMs: overrides.pollMs ?? 15_000,
    owner,
  });
}

/**
 * A leader "a" that has read three pages, its scan's checkpoint, and its next upstream read hanging until
 * `release()` is called.
 */
async function leaderWithStalledRead() {
  const a = sync('a', { pollMs: 10_000_000 });
  for (let i = 0; i < 3; i++) upstream.clock.now += await a.step();
  const checkpoint = (await store.state()).scan_page;
  const slow = upstream.readPage;
  let released!: () => void;
  const hung = new Promise<void>((resolve) => (released = resolve));
  upstream.readPage = async (page, limit) => {
    upstream.readPage = slow;
    await hung;
    return slow(page, limit);
  };
  return { a, checkpoint, release: () => released() };
}

/** Runs steps until `until` holds (or a step budget runs out), moving the clock by each wait. */
async function run(s: ReturnType<typeof sync>, until: () => Promise<boolean> | boolean, budget = 10_000) {
  for (let i = 0; i < budget; i++) {
    if (await until()) return;
    upstream.clock.now += await s.step();
  }
  throw new Error('the sync did not get there within its step budget');
}

const scans = async () => (await store.state()).scans_completed;
const indexedIds = async () => {
  const page = await createQueries(store).list(defaults(filterSchema), 1, 10_000);
  return new Set(page.data.map((c) => c.id));
};

describe.each(storeKinds())('on $name', (each) => {
  beforeAll(async () => {
    kind = each;
    await kind.setup();
  });
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sync-test-'));
    store = await open();
    upstream = fakeUpstream(450);
  });
  afterEach(async () => {
    await store.close();
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('a full scan', () => {
    it('says once that the index is ready, with the dashboard’s address; later scans only at debug', async () => {
      const lines: [string, string][] = [];
      const log = {
        info: (_: object, m: string) => lines.push(['info', m]),
        warn: (_: object, m: string) => lines.push(['warn', m]),
        debug: (_: object, m: string) => lines.push(['debug', m]),
      };
      const s = createSync({
        store,
        readPage: (page, limit, cancel) => upstream.readPage(page, limit, cancel),
        now: () => upstream.clock.now,
        rps: 50,
        pollMs: 1_000,
        owner: 'a',
        log,
        url: 'http://localhost:3000',
      });
      await run(s, async () => (await scans()) === 3);
      expect(lines.filter(([, m]) => m.startsWith('index: ready'))).toEqual([
        ['info', 'index: ready, search and filters cover every collection · http://localhost:3000'],
      ]);
      expect(lines.filter(([, m]) => m === 'index sync: full scan complete').map(([level]) => level)).toEqual([
        'info',
        'debug',
        'debug',
      ]);
    });

    it('polls the head and the tail first, then reads every page at the paced rate', async () => {
      const s = sync('a', { rps: 5 });
      await run(s, async () => (await scans()) === 1);
      // Poll: page 1 and the last page (5); scan: pages 1..5.
      expect(upstream.requests.map((r) => r.page)).toEqual([1, 5, 1, 2, 3, 4, 5]);
      // 5 requests per second: 200 ms apart.
      const gaps = upstream.requests.slice(1).map((r, i) => r.at - upstream.requests[i]!.at);
      expect(new Set(gaps)).toEqual(new Set([200]));
      expect((await indexedIds()).size).toBe(450);
      const state = await store.state();
      expect(state).toMatchObject({ upstream_count: 450, scan_started_at: null, error_code: null });
      expect(state.last_full_scan_at).not.toBeNull();
    });

    it("counts an unpaced step's own time toward its wait; a paced step waits its whole pace", async () => {
      const answer = upstream.readPage;
      // Every read takes 15 ms of the clock.
      upstream.readPage = async (page, limit) => {
        upstream.clock.now += 15;
        return answer(page, limit);
      };
      // 50 requests a second (20 ms a page): the head's poll took 15 ms, 5 are left to wait.
      const unpaced = sync('a', { rps: 50, pollMs: 10_000_000 });
      expect(await unpaced.step()).toBe(5);
      await unpaced.stop();
      // 5 a second (200 ms a page): the whole 200 ms after the read, as an upstream with a quota expects.
      const paced = sync('b', { rps: 5, pollMs: 10_000_000 });
      expect(await paced.step()).toBe(200);
    });

    it('reads the next page while writing this one when unpaced, and never a page twice', async () => {
      const s = sync('a', { rps: 1000, pollMs: 10_000_000 });
      await run(s, async () => (await scans()) === 1);
      expect(upstream.requests.map((r) => r.page)).toEqual([1, 5, 1, 2, 3, 4, 5]);
      expect((await indexedIds()).size).toBe(450);
    });

    it("stages an unpaced first scan's contact tokens and merges them as it completes: every record found by its contact", async () => {
      const staged = async () =>
        (
          await store.db
            .selectFrom('contact_tokens_staged')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n;
      upstream = fakeUpstream(2_500);
      const s = sync('a', { rps: 1000, pollMs: 10_000_000 });
      // The pages read ahead while one is written are written together, up to ten, each read once.
      const checkpoints: number[] = [];
      await run(s, async () => {
        checkpoints.push((await store.state()).scan_page);
        return checkpoints.at(-1)! > 2;
      });
      expect(checkpoints.at(-1)).toBe(12);
      expect(Number(await staged())).toBeGreaterThan(1_000 * 5);
      await run(s, async () => (await scans()) === 1);
      expect(upstream.requests.map((r) => r.page)).toEqual([1, 25, ...Array.from({ length: 25 }, (_, i) => i + 1)]);
      expect(Number(await staged())).toBe(0);
      for (const c of upstream.list.filter((_, i) => i % 37 === 0)) {
        const hits = await createQueries(store).search(c.contact.email, defaults(filterSchema), 1, 10);
        expect(hits.data.map((h) => h.id)).toEqual([c.id]);
      }
      // A later scan writes a new record's tokens in place: found at once, even unpaced.
      const [added] = upstream.addAtHead(1);
      await run(
        s,
        async () =>
          (await store.state()).scan_page === 2 && (await scans()) === 1 && (await indexedIds()).has(added!.id),
      );
      expect(Number(await staged())).toBe(0);
      expect(
        (await createQueries(store).search(added!.contact.email, defaults(filterSchema), 1, 10)).data.map((h) => h.id),
      ).toEqual([added!.id]);
    });

    it('puts off the amount trees while an unpaced first scan writes on SQLite and builds them as it completes; another account sharing the file keeps them', async () => {
      const amountTrees = async () =>
        (store.dialect === 'sqlite'
          ? await sql<{
              name: string;
            }>`select name from sqlite_master where type = 'index' and name like 'collections%amount'`.execute(store.db)
          : await sql<{
              name: string;
            }>`select indexname as name from pg_indexes where indexname like 'collections%amount'`.execute(store.db)
        ).rows
          .map((r) => r.name)
          .sort();
      const both = ['collections_amount', 'collections_currency_amount'];
      // Built with a small page cache (their sort holds as much): the writer's own is given back.
      const cache = async () =>
        store.dialect === 'sqlite' ? (await sql`pragma cache_size`.execute(store.db)).rows : [];
      const cacheBefore = await cache();
      upstream = fakeUpstream(2_500);
      const s = sync('a', { rps: 1000, pollMs: 10_000_000 });
      await run(s, async () => (await store.state()).scan_page > 2);
      expect(await amountTrees()).toEqual(store.dialect === 'sqlite' ? [] : both);
      // Sorted by amount meanwhile: read without them.
      const byAmount = { ...defaults(filterSchema), sort: 'amount' as const };
      expect((await createQueries(store).list(byAmount, 1, 10)).data).toHaveLength(10);
      await run(s, async () => (await scans()) === 1);
      expect(await amountTrees()).toEqual(both);
      expect(await cache()).toEqual(cacheBefore);

      // A first scan left midway (its trees dropped) and resumed by a sync that does not stage (paced): its
      // first step builds them, long before the scan completes.
      await store.close();
      rmSync(dir, { recursive: true, force: true });
      await kind.reset();
      dir = mkdtempSync(join(tmpdir(), 'sync-test-'));
      store = await open();
      await run(sync('a', { rps: 1000, pollMs: 10_000_000 }), async () => (await store.state()).scan_page > 2);
      expect(await amountTrees()).toEqual(store.dialect === 'sqlite' ? [] : both);
      const resumed = sync('a', { rps: 5, pollMs: 10_000_000 });
      const pageBefore = (await store.state()).scan_page;
      await run(resumed, async () => (await amountTrees()).length === 2, 5);
      expect(await store.state()).toMatchObject({ scans_completed: 0 });
      expect((await store.state()).scan_page).toBeLessThanOrEqual(pageBefore + 1);
      await resumed.stop();

      // Another account's first scan beside the first one's rows keeps them (dropped here as an abandoned
      // scan leaves them): it builds them at its first write.
      if (store.dialect === 'sqlite') for (const name of both) await sql`drop index ${sql.id(name)}`.execute(store.db);
      const other = await openIndexStore({
        target: kind.target(dir),
        keys: blindKeys(SECRET),
        account: 'acct_other',
        clock: () => upstream.clock.now,
      });
      try {
        const b = sync('b', { rps: 1000, pollMs: 10_000_000, s: other });
        await run(b, async () => (await other.state()).scan_page > 2);
        expect(await amountTrees()).toEqual(both);
        await run(b, async () => (await other.state()).scans_completed === 1);
        expect(await amountTrees()).toEqual(both);
        expect((await createQueries(other).list(byAmount, 1, 10_000)).data).toHaveLength(2_500);
      } finally {
        await other.close();
      }
    });

    it('reads nothing past a page that failed ahead of an unpaced first scan until the scan has met it (a 429 waits out its Retry-After)', async () => {
      upstream = fakeUpstream(2_500);
      upstream.failPage(5, { code: 'rate_limited', retryAfter: 30 });
      const s = sync('a', { rps: 1000, pollMs: 10_000_000 });
      await run(s, async () => (await scans()) === 1);
      const failedAt = upstream.requests.find((r) => r.page === 5)!.at;
      const later = upstream.requests.filter((r) => r.page > 5 && r.page < 25);
      expect(Math.min(...later.map((r) => r.at))).toBeGreaterThanOrEqual(failedAt + 30_000);
      // Each page read once, page 5 twice (refused, then after the wait); the tail once more by the poll.
      const pages = upstream.requests.map((r) => r.page);
      expect(pages.filter((p) => p === 5)).toHaveLength(2);
      for (let page = 6; page < 25; page++)
        expect(
          pages.filter((p) => p === page),
          `page ${page}`,
        ).toHaveLength(1);
      expect((await indexedIds()).size).toBe(2_500);
    });

    it('merges the tokens a stopped leader left staged at its first write, so they never wait for the end of the scan', async () => {
      upstream = fakeUpstream(2_500);
      await run(sync('a', { rps: 1000, pollMs: 10_000_000 }), async () => (await store.state()).scan_page > 2);
      const left = async () =>
        Number(
          (
            await store.db
              .selectFrom('contact_tokens_staged')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await left()).toBeGreaterThan(0);
      const before = new Set(
        (await store.db.selectFrom('contact_tokens_staged').select('id').execute()).map((r) => r.id),
      );
      await store.close();
      store = await open();
      const again = sync('a', { rps: 1000, pollMs: 10_000_000 });
      await run(again, async () => (await store.state()).scan_page > 12);
      const still = (await store.db.selectFrom('contact_tokens_staged').select('id').execute()).map((r) => r.id);
      expect(still.filter((id) => before.has(id))).toEqual([]);
      const one = upstream.list.find((c) => before.has(c.id))!;
      const hits = await createQueries(store).search(one.contact.email, defaults(filterSchema), 1, 10);
      expect(hits.data.map((h) => h.id)).toEqual([one.id]);
    });

    it('rescans a small account no more often than it polls', async () => {
      const s = sync('a', { pollMs: 15_000 });
      await run(s, async () => (await scans()) === 1);
      const started = upstream.requests[2]!.at;
      await run(s, async () => (await scans()) === 2);
      const second = upstream.requests.filter((r) => r.at > started + 1_000 && r.page === 2)[0]!;
      expect(second.at - started).toBeGreaterThanOrEqual(15_000);
    });

    it('misses nothing when records are added at the head while it runs', async () => {
      const s = sync('a', { pollMs: 10_000_000 });
      // Read pages 1 and 2 of the scan, then the head grows by 150 (every later page shifts by 1.5 pages).
      await run(s, async () => (await store.state()).scan_page === 3);
      upstream.addAtHead(150);
      await run(s, async () => (await scans()) === 1);
      const indexed = await indexedIds();
      for (const c of upstream.list.slice(150)) expect(indexed.has(c.id), c.id).toBe(true);
    });

    it('resumes from its checkpoint after a restart instead of page 1', async () => {
      await run(sync('a', { pollMs: 10_000_000 }), async () => (await store.state()).scan_page === 4);
      await store.close();
      store = await open();
      upstream.requests.length = 0;
      await run(sync('a', { pollMs: 10_000_000 }), async () => (await scans()) === 1);
      // A fresh process polls the head and the tail, then carries on at page 4.
      expect(upstream.requests.map((r) => r.page)).toEqual([1, 5, 4, 5]);
    });

    it('hides records the upstream no longer lists once a later scan completes', async () => {
      const s = sync();
      await run(s, async () => (await scans()) === 1);
      upstream.remove('pay_10');
      await run(s, async () => (await scans()) === 2);
      expect((await indexedIds()).has('pay_10')).toBe(false);
      expect((await indexedIds()).size).toBe(449);
    });

    it('picks up a new head record within one poll interval', async () => {
      const s = sync('a', { pollMs: 15_000 });
      await run(s, async () => (await scans()) === 1);
      const [added] = upstream.addAtHead(1);
      const start = upstream.clock.now;
      await run(s, async () => (await indexedIds()).has(added!.id));
      expect(upstream.clock.now - start).toBeLessThanOrEqual(15_000);
      const hits = await createQueries(store).search(added!.reference, defaults(filterSchema), 1, 10);
      expect(hits.data.map((h) => h.id)).toEqual([added!.id]);
    });
  });

  describe('what a sync leaves in the store', () => {
    it('holds no readable contact data of any synced collection', async () => {
      await run(sync(), async () => (await scans()) === 1);
      const text = await kind.storedText(store.db as Kysely<never>, dir);
      expect(text).toContain('pay_1');
      for (const c of upstream.list) {
        const digits = c.contact.phone.replace(/\D/g, '');
        for (const value of [c.contact.email, c.contact.phone, digits, c.contact.firstName, c.contact.lastName]) {
          expect(text, value).not.toContain(value.toLowerCase());
        }
      }
    });
  });

  describe('faults', () => {
    it('sends nothing before Retry-After has passed after a 429', async () => {
      upstream.failPage(3, { code: 'rate_limited', retryAfter: 7 });
      const s = sync();
      await run(s, () => upstream.requests.filter((r) => r.page === 3).length === 1);
      const limitedAt = upstream.requests.find((r) => r.page === 3)!.at;
      // Steps taken early send nothing; the leader wakes every 5 s to renew its lease meanwhile.
      upstream.clock.now = limitedAt + 1_000;
      expect(await s.step()).toBe(5_000);
      upstream.clock.now = limitedAt + 6_000;
      expect(await s.step()).toBe(1_000);
      await run(s, () => upstream.requests.filter((r) => r.page === 3).length === 2);
      const after = upstream.requests.filter((r) => r.at > limitedAt);
      expect(after[0]!.at).toBeGreaterThanOrEqual(limitedAt + 7_000);
    });

    it('retries 500, malformed and reset pages later and completes with nothing lost', async () => {
      upstream.failPage(2, { code: 'upstream_error' }, { code: 'upstream_invalid' });
      upstream.failPage(
        4,
        { code: 'upstream_unreachable' },
        { code: 'upstream_unreachable' },
        { code: 'upstream_unreachable' },
      );
      const s = sync('a', { pollMs: 10_000_000 });
      await run(s, async () => (await scans()) === 1);
      expect((await indexedIds()).size).toBe(450);
      expect((await store.state()).error_code).toBeNull();
    });

    it('backs off exponentially on repeated failures', async () => {
      upstream.failPage(1, { code: 'upstream_error' }, { code: 'upstream_error' });
      const s = sync();
      const first = await s.step();
      const early = await s.step();
      upstream.clock.now += first;
      const second = await s.step();
      expect([first, early, second]).toEqual([1_000, 1_000, 2_000]);
      expect(upstream.requests).toHaveLength(2);
    });

    it('completes a scan around a page that never answers, and hides nothing', async () => {
      const s = sync('a', { pollMs: 10_000_000 });
      await run(s, async () => (await scans()) === 1);
      upstream.remove('pay_1');
      upstream.failAlways(3, 'upstream_error');
      await run(s, async () => (await scans()) === 2);
      // pay_1 (on the last page) is not hidden: the scan could not see everything.
      expect((await indexedIds()).size).toBe(450);
    });

    it('stops with upstream_auth when the key is rejected, retrying once a minute', async () => {
      upstream.failPage(1, { code: 'upstream_auth' }, { code: 'upstream_auth' });
      const s = sync();
      expect(await s.step()).toBe(60_000);
      const state = await store.state();
      expect(state.error_code).toBe('upstream_auth');
      expect(isErrorState(state, s.snapshot().failures)).toBe(true);
      upstream.clock.now += 30_000;
      // Waiting out the minute, renewing the lease every 5 s, sending nothing.
      expect(await s.step()).toBe(5_000);
      expect(upstream.requests).toHaveLength(1);
      upstream.clock.now += 30_000;
      await s.step();
      upstream.clock.now += 60_000;
      await run(s, async () => (await scans()) === 1);
      expect((await store.state()).error_code).toBeNull();
    });
  });

  describe('two processes on one index', () => {
    it('lets one sync while the other waits, and takes over when the first stops', async () => {
      const other = await open();
      try {
        const a = sync('a');
        const b = sync('b', { s: other });
        await a.step();
        expect(await b.step()).toBe(5_000);
        expect(b.snapshot().leader).toBe(false);
        expect(upstream.requests).toHaveLength(1);
        await a.stop();
        await b.step();
        expect(b.snapshot().leader).toBe(true);
        expect(upstream.requests).toHaveLength(2);
      } finally {
        await other.close();
      }
    });

    it('never scans twice at once: a replica waits while the leader reads, takes over within 25 s of its death and resumes from the checkpoint', async () => {
      const other = await open();
      try {
        const a = sync('a', { pollMs: 10_000_000 });
        const b = sync('b', { s: other, pollMs: 10_000_000 });
        // Two replicas stepping side by side: a polls (pages 1 and 5) and scans pages 1 and 2; b reads nothing.
        for (let i = 0; i < 4; i++) {
          const wait = await a.step();
          await b.step();
          upstream.clock.now += wait;
        }
        expect(upstream.requests.map((r) => r.page)).toEqual([1, 5, 1, 2]);
        expect(b.snapshot().leader).toBe(false);
        // a dies (no goodbye): b asks every 5 s and holds the lease once it lapsed.
        const diedAt = upstream.clock.now;
        const checkpoint = (await store.state()).scan_page;
        expect(checkpoint).toBe(3);
        while (!b.snapshot().leader) upstream.clock.now += await b.step();
        expect(upstream.clock.now - diedAt).toBeLessThanOrEqual(25_000);
        const before = upstream.requests.length;
        await run(b, async () => (await scans()) === 1);
        // b polled the head as it took over (page 1); then the tail, then the scan from the checkpoint on:
        // pages 1 and 2 of the scan are not read again.
        expect(upstream.requests.slice(before).map((r) => r.page)).toEqual([5, 3, 4, 5]);
        expect((await indexedIds()).size).toBe(450);
      } finally {
        await other.close();
      }
    });

    it('hands over only after the step under way has written, and starts none after', async () => {
      const other = await open();
      try {
        const { a, checkpoint, release } = await leaderWithStalledRead();
        const stalled = a.step();
        await new Promise((resolve) => setTimeout(resolve, 10));
        let handedOver = false;
        const stopping = a.stop().then(() => (handedOver = true));
        // The page is still being read: the lease is a's, and another replica waits.
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(handedOver).toBe(false);
        const b = sync('b', { s: other, pollMs: 10_000_000 });
        expect(await b.step()).toBe(5_000);
        expect(b.snapshot().leader).toBe(false);
        release();
        await stalled;
        await stopping;
        // a wrote its page, then gave the lease up; its loop's next step does nothing.
        expect((await store.state()).scan_page).toBe(checkpoint + 1);
        const asked = upstream.requests.length;
        await a.step();
        expect(upstream.requests).toHaveLength(asked);
        await b.step();
        expect(b.snapshot().leader).toBe(true);
      } finally {
        await other.close();
      }
    });

    it('aborts the upstream request under way at a hand-over, records no failure and gives the lease up', async () => {
      const other = await open();
      try {
        const a = sync('a', { pollMs: 10_000_000 });
        for (let i = 0; i < 3; i++) upstream.clock.now += await a.step();
        const slow = upstream.readPage;
        let aborted = false;
        upstream.readPage = (_page, _limit, cancel) => {
          upstream.readPage = slow;
          return new Promise<ListPage>((_, reject) =>
            cancel?.addEventListener('abort', () => {
              aborted = true;
              reject(Object.assign(new Error('aborted'), { code: 'upstream_unreachable' }));
            }),
          );
        };
        const stalled = a.step();
        await new Promise((resolve) => setTimeout(resolve, 10));
        await a.stop();
        expect(aborted).toBe(true);
        await stalled;
        expect((await store.state()).error_code).toBeNull();
        const b = sync('b', { s: other, pollMs: 10_000_000 });
        await b.step();
        expect(b.snapshot().leader).toBe(true);
      } finally {
        await other.close();
      }
    });

    it('drops what a request brought back after its lease lapsed, instead of writing over the new leader', async () => {
      const other = await open();
      try {
        // a's next request hangs for 40 s; meanwhile b takes the lapsed lease and moves the scan on.
        const { a, checkpoint, release } = await leaderWithStalledRead();
        const stalled = a.step();
        upstream.clock.now += 40_000;
        const b = sync('b', { s: other, pollMs: 10_000_000 });
        // b: the head and the tail, then scan pages 2 and 3.
        for (let i = 0; i < 4; i++) upstream.clock.now += await b.step();
        expect(b.snapshot().leader).toBe(true);
        const moved = (await store.state()).scan_page;
        expect(moved).toBeGreaterThan(checkpoint);
        release();
        await stalled;
        expect(a.snapshot().leader).toBe(false);
        expect((await store.state()).scan_page).toBe(moved);
      } finally {
        await other.close();
      }
    });

    it('keeps the lease while it waits out a Retry-After longer than the lease, so no other replica starts early', async () => {
      const other = await open();
      try {
        upstream.failPage(1, { code: 'rate_limited', retryAfter: 45 });
        const a = sync('a');
        const b = sync('b', { s: other });
        expect(await a.step()).toBe(45_000);
        const limitedAt = upstream.clock.now;
        while (upstream.clock.now < limitedAt + 40_000) {
          upstream.clock.now += await a.step();
          await b.step();
        }
        expect(b.snapshot().leader).toBe(false);
        expect(upstream.requests).toHaveLength(1);
      } finally {
        await other.close();
      }
    });

    it("neither takes the lease early nor loses it when the replicas' clocks differ by ten minutes", async () => {
      const other = await open();
      try {
        const TEN_MINUTES = 600_000;
        // a's clock runs ten minutes behind the database's, b's ten minutes ahead.
        const a = sync('a', { skewMs: -TEN_MINUTES, pollMs: 10_000_000 });
        const b = sync('b', { s: other, skewMs: TEN_MINUTES, pollMs: 10_000_000 });
        for (let i = 0; i < 20; i++) {
          const wait = await a.step();
          await b.step();
          upstream.clock.now += wait;
        }
        expect(a.snapshot().leader).toBe(true);
        expect(b.snapshot().leader).toBe(false);
        // a dies: b takes over once the lease lapsed on the database's clock, not before.
        const diedAt = upstream.clock.now;
        while (!b.snapshot().leader) upstream.clock.now += await b.step();
        expect(upstream.clock.now - diedAt).toBeGreaterThanOrEqual(15_000);
        expect(upstream.clock.now - diedAt).toBeLessThanOrEqual(25_000);
      } finally {
        await other.close();
      }
    });

    it('hides nothing when a scan begun by a replica whose clock runs ahead is finished by another', async () => {
      const other = await open();
      try {
        // a's clock runs ten minutes ahead: it begins the scan (pages 1 and 2 of 5), then dies.
        const a = sync('a', { skewMs: 600_000, pollMs: 10_000_000 });
        for (let i = 0; i < 4; i++) upstream.clock.now += await a.step();
        expect((await store.state()).scan_page).toBe(3);
        // b, on time, finishes it: what b saw is not older than the scan's start on any clock they share.
        const b = sync('b', { s: other, pollMs: 10_000_000 });
        upstream.clock.now += 25_000;
        await run(b, async () => (await scans()) === 1);
        expect((await indexedIds()).size).toBe(450);
      } finally {
        await other.close();
      }
    });

    it('takes over a lease that lapsed (a process that died)', async () => {
      const other = await open();
      try {
        await sync('a').step();
        const b = sync('b', { s: other });
        upstream.clock.now += 31_000;
        await b.step();
        expect(b.snapshot().leader).toBe(true);
      } finally {
        await other.close();
      }
    });
  });
});
