import type { CollectionSummary } from '../lib/api/summary';
import { expect, indexReady, test } from './fixtures';

/**
 * The index's API (contract section 7) against the e2e dashboard, whose index
 * starts empty each run and syncs the sandbox in seconds. Values searched for
 * are the sandbox's own fixture contacts, never hard-coded.
 */
type Summary = CollectionSummary & { matched?: string[] };
type IndexEnvelope = {
  status: string;
  data: Summary[];
  meta: {
    count: number;
    next: number | null;
    prev: number | null;
    source: string;
    asOf: string | null;
    coverage: number;
  };
};

test.describe('GET /api/index/status', () => {
  test('reports a ready index covering every listed collection', async ({ request, sandbox }) => {
    await indexReady(request);
    const res = await request.get('/api/index/status');
    expect(res.headers()['cache-control']).toBe('private, no-store');
    const { data } = await res.json();
    expect(data).toMatchObject({
      state: 'ready',
      indexed: sandbox.demo.listedCollections,
      upstreamCount: sandbox.demo.listedCollections,
      coverage: 1,
    });
    for (const field of ['lastFullScanAt', 'lastPollAt', 'asOf', 'countedAt'])
      expect(Date.parse(data[field])).not.toBeNaN();
  });
});

test.describe('GET /api/search', () => {
  test.beforeEach(async ({ request }) => indexReady(request));

  test('finds a fixture collection by what a customer would quote', async ({ request, sandbox }) => {
    const [id, c] = Object.entries(sandbox.demo.contacts)[0]!;
    const digits = c.phone.replace(/\D/g, '');
    const cases: [string, string][] = [
      [c.email.toUpperCase(), 'email'],
      [c.phone, 'phone'],
      [`+${digits}`, 'phone'],
      [digits.slice(-4), 'phoneLast4'],
      [c.reference.slice(0, -1).toLowerCase(), 'reference'],
      [`${c.lastName} ${c.firstName}`, 'name'],
    ];
    for (const [q, field] of cases) {
      const res = await request.get(`/api/search?q=${encodeURIComponent(q)}&limit=100`);
      expect(res.status(), q).toBe(200);
      const body = (await res.json()) as IndexEnvelope;
      const hit = body.data.find((h) => h.id === id);
      expect(hit, `${q} finds ${id}`).toBeDefined();
      expect(hit!.matched).toContain(field);
      expect(body.meta).toMatchObject({ source: 'index', coverage: 1 });
      expect(Date.parse(body.meta.asOf!)).not.toBeNaN();
      // Summaries carry the contact as the reader may see it: in full on the open dashboard (contract section
      // 10; masked for viewers with VIEWER_CONTACT_DETAILS=masked, e2e/contact-details.spec.ts).
      expect(hit!.contact).toMatchObject({ email: c.email, phone: c.phone });
    }
  });

  test('answers an unknown value with an empty page, not an error', async ({ request }) => {
    const body = (await (await request.get('/api/search?q=nobody%40nowhere.example')).json()) as IndexEnvelope;
    expect(body.data).toEqual([]);
    expect(body.meta.count).toBe(0);
  });

  for (const [query, param] of <[string, string][]>[
    ['q=', 'q'],
    ['', 'q'],
    [`q=${'x'.repeat(201)}`, 'q'],
    ['q=ada&limit=500', 'limit'],
  ]) {
    test(`refuses ${query.slice(0, 20) || '(no q)'} with a 400 naming ${param}`, async ({ request }) => {
      const res = await request.get(`/api/search?${query}`);
      expect(res.status()).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({ status: 'error', code: 'bad_request' });
      expect(body.message).toContain(param);
    });
  }
});

test.describe('GET /api/collections with filters', () => {
  test.beforeEach(async ({ request }) => indexReady(request));

  test('filters by status, currency, date range and amount, sorted by amount, from the index', async ({ request }) => {
    const all = (await (await request.get('/api/collections?sort=-amount&limit=100')).json()) as IndexEnvelope;
    expect(all.meta.source).toBe('index');
    const sample = all.data.find((c) => c.status === 'pending')!;
    const day = sample.createdAt.slice(0, 10);
    const query = new URLSearchParams({
      status: 'pending,expired',
      currency: sample.amount.currency,
      createdFrom: '2020-01-01',
      createdTo: day,
      amountMin: '1',
      amountMax: String(sample.amount.value),
      sort: 'amount',
      limit: '100',
    });
    const res = await request.get(`/api/collections?${query}`);
    expect(res.status()).toBe(200);
    const body = (await res.json()) as IndexEnvelope;
    expect(body.meta).toMatchObject({ source: 'index', coverage: 1 });
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.map((c) => c.id)).toContain(sample.id);
    let previous = -Infinity;
    for (const c of body.data) {
      expect(['pending', 'expired']).toContain(c.status);
      expect(c.amount.currency).toBe(sample.amount.currency);
      expect(c.amount.value).toBeGreaterThanOrEqual(1);
      expect(c.amount.value).toBeLessThanOrEqual(sample.amount.value);
      expect(c.createdAt.slice(0, 10) <= day).toBe(true);
      expect(c.amount.value).toBeGreaterThanOrEqual(previous);
      previous = c.amount.value;
    }
  });

  test('pages a filtered view with a correct total and no repeats', async ({ request }) => {
    const get = async (page: number) =>
      (await (
        await request.get(`/api/collections?status=pending&sort=-updatedAt&limit=25&page=${page}`)
      ).json()) as IndexEnvelope;
    const first = await get(1);
    const second = await get(2);
    expect(first.meta).toMatchObject({ next: 2, prev: null });
    expect(second.meta).toMatchObject({ prev: 1, count: first.meta.count });
    const ids = [...first.data, ...second.data].map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  for (const [query, param] of <[string, string][]>[
    ['sort=newest', 'sort'],
    ['createdFrom=2026-13-01', 'createdFrom'],
    ['amountMin=1.5', 'amountMin'],
    ['amountMin=10&amountMax=5', 'amountMin'],
    ['q=', 'q'],
    ['status=', 'status'],
  ]) {
    test(`refuses ${query} with a 400 naming ${param}`, async ({ request }) => {
      const res = await request.get(`/api/collections?${query}`);
      expect(res.status()).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({ status: 'error', code: 'bad_request' });
      expect(body.message).toContain(param);
    });
  }

  test('stays the live upstream list without filters', async ({ request }) => {
    const body = await (await request.get('/api/collections?limit=5')).json();
    expect(body.meta.source).toBe('upstream');
  });
});
