/**
 * Contract tests for the sandbox upstream (CONTRACT.md section 2, seed read-interface.md):
 * a real server on 127.0.0.1, spoken to over HTTP with fetch. Record ids come from
 * `GET /__sandbox/fixtures`, never from this file. Fault injection has its own file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionEnvelopeSchema, collectionListEnvelopeSchema, providerEnvelopeSchema } from '../lib/api/envelopes';
import type { Collection } from '../lib/api/schemas';
import { createDatabase, openDatabase } from './db';
import { FORMULA_INJECTIONS } from './seed-data';
import { loadFixtures, type Fixtures } from './fixtures';
import { createSandbox } from './server';

type Account = Fixtures['accounts'][number];
type Headers = Record<string, string>;

let base = '';
let stop: () => Promise<void> = async () => {};
let demo: Account;
let other: Account;

/** A well-formed id that no account owns. */
const MISSING_COLLECTION = 'pay_doesNotExist0000000000';
const MISSING_PROVIDER = 'prv_doesNotExist0000000';

const bearer = (key: string): Headers => ({ Authorization: `Bearer ${key}` });
const get = (path: string, headers: Headers = bearer(demo.key)) => fetch(base + path, { headers });

async function expectError(res: Response, status: number, message: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await res.json()).toEqual({ status: 'error', message });
}

async function listPage(query: string, headers?: Headers) {
  const res = await get(`/public/collections${query}`, headers);
  expect(res.status).toBe(200);
  return collectionListEnvelopeSchema.parse(await res.json());
}

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-contract-'));
  const db = openDatabase(join(dir, 'sandbox.sqlite'));
  const server = createSandbox({ db, faults: true, slowMs: 300 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    db.close();
    await rm(dir, { recursive: true, force: true });
  };

  const fixtures = (await (await fetch(`${base}/__sandbox/fixtures`)).json()) as Fixtures;
  demo = fixtures.accounts.find((a) => a.key === 'sk_sandbox_demo')!;
  other = fixtures.accounts.find((a) => a.key === 'sk_sandbox_other')!;
});

afterAll(() => stop());

describe('sandbox endpoints', () => {
  it('answers the health check without a key', async () => {
    const res = await fetch(`${base}/__sandbox/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('publishes both documented accounts with sample ids through /__sandbox/fixtures', async () => {
    expect(demo).toMatchObject({ name: 'Demo Store', key: 'sk_sandbox_demo', listedCollections: 253 });
    expect(other).toMatchObject({ key: 'sk_sandbox_other' });
    expect(other.id).not.toBe(demo.id);
    for (const account of [demo, other]) {
      expect(account.collections.integrated.length).toBeGreaterThan(0);
      expect(account.collections.notIntegrated.length).toBeGreaterThan(0);
      expect(account.providers.length).toBeGreaterThan(0);
      for (const id of [...account.collections.integrated, ...account.collections.notIntegrated])
        expect(id).toMatch(/^pay_/);
      for (const id of account.providers) expect(id).toMatch(/^prv_/);
    }
    expect(demo.providers.length).toBeGreaterThan(other.providers.length);
    // Every named example exists in a fresh seed, so the dashboard's tests can rely on them.
    expect(Object.values(demo.examples).every((id) => typeof id === 'string')).toBe(true);
  });
});

describe('GET /public/collections/{id}', () => {
  it('returns an integrated collection in the success envelope', async () => {
    const id = demo.collections.integrated[0]!;
    const res = await get(`/public/collections/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = collectionEnvelopeSchema.parse(await res.json());
    expect(body.message).toBe('Collection retrieved successfully');
    expect(body.data.id).toBe(id);
    expect(body.data.type).toBe('integrated');
  });

  it('returns collections that are not integrated, though the list leaves them out', async () => {
    for (const id of demo.collections.notIntegrated) {
      const body = collectionEnvelopeSchema.parse(await (await get(`/public/collections/${id}`)).json());
      expect(body.data.id).toBe(id);
      expect(body.data.type).not.toBe('integrated');
    }
  });

  it('returns every named example record, each valid against the shared schema', async () => {
    for (const [name, id] of Object.entries(demo.examples)) {
      const res = await get(`/public/collections/${id}`);
      expect(res.status, name).toBe(200);
      expect(collectionEnvelopeSchema.safeParse(await res.json()).success, name).toBe(true);
    }
  });

  it('returns a completed collection with completedAt and a pending one without', async () => {
    const completed = collectionEnvelopeSchema.parse(
      await (await get(`/public/collections/${demo.examples.completed}`)).json(),
    ).data;
    expect(completed.status).toBe('completed');
    expect(completed.completedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('gives 404 "Collection not found" for an id nobody owns, well-formed or not', async () => {
    await expectError(await get(`/public/collections/${MISSING_COLLECTION}`), 404, 'Collection not found');
    await expectError(await get('/public/collections/not_a_pay_id'), 404, 'Collection not found');
    await expectError(await get('/public/collections/pay_bad.chars'), 404, 'Collection not found');
    await expectError(await get('/public/collections/pay_%E0%A4%A'), 404, 'Collection not found');
  });

  it('gives 403 "Collection belongs to a different account" across accounts, both ways', async () => {
    await expectError(
      await get(`/public/collections/${other.collections.integrated[0]}`),
      403,
      'Collection belongs to a different account',
    );
    await expectError(
      await get(`/public/collections/${other.collections.notIntegrated[0]}`),
      403,
      'Collection belongs to a different account',
    );
    await expectError(
      await get(`/public/collections/${demo.collections.integrated[0]}`, bearer(other.key)),
      403,
      'Collection belongs to a different account',
    );
  });
});

describe('authentication', () => {
  const invalid = (res: Response) => expectError(res, 401, 'Invalid API key');

  it('accepts the key as Authorization: Bearer, with any case of the scheme, and as X-API-Key', async () => {
    const path = `/public/collections/${demo.collections.integrated[0]}`;
    for (const headers of [
      bearer(demo.key),
      { Authorization: `bearer ${demo.key}` },
      { authorization: `BEARER ${demo.key}` },
      { 'X-API-Key': demo.key },
    ]) {
      const res = await get(path, headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('gives 401 for a missing key, a wrong key, an empty bearer and another scheme', async () => {
    const path = `/public/collections/${demo.collections.integrated[0]}`;
    await invalid(await get(path, {}));
    await invalid(await get(path, bearer('sk_sandbox_nope')));
    await invalid(await get(path, { 'X-API-Key': 'sk_sandbox_nope' }));
    await invalid(await get(path, { Authorization: 'Bearer' }));
    await invalid(await get(path, { Authorization: `Basic ${demo.key}` }));
    await invalid(await get(path, { Authorization: demo.key }));
  });

  it('checks the key before ownership and existence: 401, then 403, then 404', async () => {
    for (const headers of [{}, bearer('sk_sandbox_nope')]) {
      await invalid(await get(`/public/collections/${MISSING_COLLECTION}`, headers));
      await invalid(await get('/public/collections/not_a_pay_id', headers));
      await invalid(await get(`/public/collections/${other.collections.integrated[0]}`, headers));
      await invalid(await get(`/public/providers/${MISSING_PROVIDER}`, headers));
      await invalid(await get(`/public/providers/${other.providers[0]}`, headers));
      await invalid(await get('/public/collections', headers));
      await invalid(await get('/public/collections?limit=abc', headers));
    }
    await expectError(
      await get(`/public/collections/${other.collections.integrated[0]}`),
      403,
      'Collection belongs to a different account',
    );
    await expectError(await get(`/public/collections/${MISSING_COLLECTION}`), 404, 'Collection not found');
  });
});

describe('GET /public/providers/{id}', () => {
  it("returns each of the account's providers in the success envelope", async () => {
    for (const id of demo.providers) {
      const res = await get(`/public/providers/${id}`);
      expect(res.status).toBe(200);
      const body = providerEnvelopeSchema.parse(await res.json());
      expect(body.message).toBe('Provider retrieved successfully');
      expect(body.data.id).toBe(id);
      expect(body.data.slug).toMatch(/^[a-z0-9-]+$/);
    }
  });

  it('gives 403 "Provider belongs to a different account" for the other account\'s provider', async () => {
    await expectError(
      await get(`/public/providers/${other.providers[0]}`),
      403,
      'Provider belongs to a different account',
    );
    await expectError(
      await get(`/public/providers/${demo.providers[0]}`, bearer(other.key)),
      403,
      'Provider belongs to a different account',
    );
  });

  it('gives 404 "Provider not found" for unknown ids, including a collection id', async () => {
    await expectError(await get(`/public/providers/${MISSING_PROVIDER}`), 404, 'Provider not found');
    await expectError(await get(`/public/providers/${demo.collections.integrated[0]}`), 404, 'Provider not found');
  });
});

describe('GET /public/collections (list)', () => {
  /** The demo account's whole list, fetched at the maximum page size. */
  let full: Collection[];

  beforeAll(async () => {
    full = [];
    for (let page = 1; page <= 3; page++) full.push(...(await listPage(`?page=${page}&limit=100`)).data);
  });

  it('defaults to page 1 with 10 items: prev null, next 2, count of integrated collections', async () => {
    const body = await listPage('');
    expect(body.message).toBe('Collections retrieved successfully');
    expect(body.data).toHaveLength(10);
    expect(body.meta).toEqual({ count: 253, next: 2, prev: null });
    expect(body.meta.count).toBe(demo.listedCollections);
    // The fixtures' integrated sample is the newest of the list.
    expect(body.data.slice(0, demo.collections.integrated.length).map((c) => c.id)).toEqual(
      demo.collections.integrated,
    );
  });

  it("accepts limit=100 and answers middle, last and past-the-end pages per the seed's rule", async () => {
    const first = await listPage('?limit=100');
    expect(first.data).toHaveLength(100);
    expect(first.meta).toEqual({ count: 253, next: 2, prev: null });

    const middle = await listPage('?page=2&limit=100');
    expect(middle.data).toHaveLength(100);
    expect(middle.meta).toEqual({ count: 253, next: 3, prev: 1 });

    const last = await listPage('?page=3&limit=100');
    expect(last.data).toHaveLength(53);
    expect(last.meta).toEqual({ count: 253, next: null, prev: 2 });

    const beyond = await listPage('?page=4&limit=100');
    expect(beyond.data).toEqual([]);
    expect(beyond.meta).toEqual({ count: 253, next: null, prev: 3 });

    const farBeyond = await listPage('?page=5000');
    expect(farBeyond.data).toEqual([]);
    expect(farBeyond.meta).toMatchObject({ count: 253, next: null });
  });

  it('ends exactly at a page boundary when the count divides evenly', async () => {
    // 253 = 11 × 23: page 11 of size 23 is the last full page, with no next.
    const last = await listPage('?page=11&limit=23');
    expect(last.data).toHaveLength(23);
    expect(last.meta).toEqual({ count: 253, next: null, prev: 10 });
    expect(last.data.at(-1)!.id).toBe(full.at(-1)!.id);
  });

  it.each([
    ['limit=101'],
    ['limit=0'],
    ['limit=-1'],
    ['limit=abc'],
    ['limit=1.5'],
    ['limit=10&limit=20'],
    ['limit='],
    ['page=0'],
    ['page=-1'],
    ['page=abc'],
    ['page=1.5'],
    ['page=1&page=2'],
    ['page=01'],
  ])('rejects %s with 400 and the error envelope', async (query) => {
    const res = await get(`/public/collections?${query}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toEqual({ status: 'error', message: expect.any(String) });
    expect(body.message).toMatch(query.startsWith('page') ? /page/ : /limit/);
  });

  it('lists every integrated collection exactly once, newest first', () => {
    expect(full).toHaveLength(demo.listedCollections);
    expect(new Set(full.map((c) => c.id)).size).toBe(full.length);
    expect(full.every((c) => c.type === 'integrated')).toBe(true);
    for (let i = 1; i < full.length; i++) {
      expect(Date.parse(full[i]!.createdAt), `item ${i}`).toBeLessThanOrEqual(Date.parse(full[i - 1]!.createdAt));
    }
  });

  it('leaves non-integrated collections out of the list, though get-by-id returns them', async () => {
    const listed = new Set(full.map((c) => c.id));
    for (const id of demo.collections.notIntegrated) {
      expect(listed.has(id)).toBe(false);
      expect((await get(`/public/collections/${id}`)).status).toBe(200);
    }
  });

  it('pages of 25 neither overlap nor skip: together they are the limit=100 pages', async () => {
    const ids: string[] = [];
    for (let page = 1; ; page++) {
      const body = await listPage(`?page=${page}&limit=25`);
      ids.push(...body.data.map((c) => c.id));
      expect(body.meta.prev).toBe(page === 1 ? null : page - 1);
      if (body.meta.next === null) break;
      expect(body.meta.next).toBe(page + 1);
    }
    expect(ids).toEqual(full.map((c) => c.id));
  });

  it("scopes the list to the key's account: the other account's list is disjoint", async () => {
    const body = await listPage('?limit=100', bearer(other.key));
    expect(body.meta).toEqual({ count: other.listedCollections, next: null, prev: null });
    expect(body.data).toHaveLength(other.listedCollections);
    const demoIds = new Set(full.map((c) => c.id));
    expect(body.data.some((c) => demoIds.has(c.id))).toBe(false);
    expect(body.data.map((c) => c.id)).toEqual(expect.arrayContaining(other.collections.integrated));
  });
});

describe('routing', () => {
  it('gives 404 with the error envelope for paths outside the interface', async () => {
    for (const path of [
      '/',
      '/public',
      '/public/providers',
      '/public/collections/',
      '/public/collections/a/b',
      '/collections',
      '/public/contacts/x',
    ]) {
      await expectError(await get(path), 404, 'Not found');
    }
  });

  it('gives 405 with an Allow header for methods other than GET and HEAD', async () => {
    for (const method of ['POST', 'DELETE', 'PUT', 'PATCH']) {
      for (const path of ['/public/collections', `/public/collections/${demo.collections.integrated[0]}`]) {
        const res = await fetch(base + path, { method, headers: bearer(demo.key) });
        expect(res.headers.get('allow'), `${method} ${path}`).toBe('GET, HEAD');
        await expectError(res, 405, 'Method not allowed');
      }
    }
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await fetch(`${base}/public/collections/${demo.collections.integrated[0]}`, {
      method: 'HEAD',
      headers: bearer(demo.key),
    });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await res.text()).toBe('');
  });
});

describe('seeding', () => {
  it('is deterministic: two fresh databases hold the same records and fixtures', async () => {
    const dirs = await Promise.all([1, 2].map(() => mkdtemp(join(tmpdir(), 'sandbox-seed-'))));
    try {
      const snapshots = dirs.map((dir) => {
        const path = join(dir, 'sandbox.sqlite');
        createDatabase(path);
        const db = new Database(path, { readonly: true });
        try {
          return {
            fixtures: loadFixtures(db, false),
            collections: db.prepare('SELECT id, account_id, list_pos, body FROM collections ORDER BY id').all(),
            providers: db.prepare('SELECT id, account_id, body FROM providers ORDER BY id').all(),
          };
        } finally {
          db.close();
        }
      });
      const [a, b] = snapshots as [(typeof snapshots)[number], (typeof snapshots)[number]];
      expect(a.fixtures.accounts.map((x) => x.collections)).toEqual(b.fixtures.accounts.map((x) => x.collections));
      expect(a.fixtures).toEqual(b.fixtures);
      expect(a.collections).toEqual(b.collections);
      expect(a.providers).toEqual(b.providers);
      // And the same as the database the running sandbox opened.
      expect(a.fixtures.accounts.find((x) => x.key === demo.key)!.collections).toEqual(demo.collections);
    } finally {
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    }
  });
});

describe('the default seed', () => {
  /** Every field of a record a spreadsheet would run as a formula, or a newcomer read as a bug. */
  const FORMULA_START = /^[=+\-@\t\r]/;
  const suspicious = (path: string) => {
    const db = new Database(path, { readonly: true });
    try {
      return (db.prepare('SELECT body FROM collections').pluck().all() as string[])
        .map((body) => JSON.parse(body) as Collection)
        .filter((c) => [c.reference, c.contact.firstName, c.contact.lastName].some((v) => FORMULA_START.test(v)))
        .map((c) => c.reference);
    } finally {
      db.close();
    }
  };

  it('holds no test-only rows; SANDBOX_TEST_ROWS adds them in place of six records, the counts unchanged', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-test-rows-'));
    try {
      const plain = join(dir, 'plain.sqlite');
      const withTests = join(dir, 'tests.sqlite');
      createDatabase(plain);
      createDatabase(withTests, { testRows: true });
      expect(suspicious(plain)).toEqual([]);
      expect(suspicious(withTests).sort()).toEqual(FORMULA_INJECTIONS.map((i) => i.reference).sort());
      const count = (path: string) => {
        const db = new Database(path, { readonly: true });
        try {
          return db.prepare('SELECT account_id, count(*) AS n FROM collections GROUP BY account_id ORDER BY 1').all();
        } finally {
          db.close();
        }
      };
      expect(count(withTests)).toEqual(count(plain));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('seeds a file again when it holds the test rows and none are asked for (and the other way round)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-reseed-'));
    try {
      const path = join(dir, 'sandbox.sqlite');
      createDatabase(path, { testRows: true });
      openDatabase(path).close();
      expect(suspicious(path)).toEqual([]);
      openDatabase(path, { testRows: true }).close();
      expect(suspicious(path)).toHaveLength(FORMULA_INJECTIONS.length);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('seeds a file of an older seed version again (an old .data/ with the test rows)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-old-seed-'));
    try {
      const path = join(dir, 'sandbox.sqlite');
      createDatabase(path, { testRows: true });
      const old = new Database(path);
      // As version 6 wrote it: the test rows in, no `test_rows` mark.
      old.prepare("UPDATE meta SET value = '6' WHERE key = 'seed_version'").run();
      old.prepare("DELETE FROM meta WHERE key = 'test_rows'").run();
      old.close();
      openDatabase(path).close();
      expect(suspicious(path)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
