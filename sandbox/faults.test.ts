/**
 * Fault injection (sandbox/faults.ts): reserved ids `pay_fault_<kind>` / `prv_fault_<kind>`
 * and reserved list pages FAULT_PAGES[kind] answer with the fault, only when the sandbox
 * runs with faults on. Faults are chosen per request, so these tests run concurrently.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { collectionEnvelopeSchema, collectionListEnvelopeSchema, providerEnvelopeSchema } from '../lib/api/envelopes';
import { FAULT_KINDS, FAULT_PAGES, faultId, RETRY_AFTER_SECONDS, type FaultKind } from './faults';
import type { Fixtures } from './fixtures';
import { openDatabase } from './db';
import { createSandbox } from './server';

const SLOW_MS = 300;

type Sandbox = { base: string; fixtures: Fixtures; key: string; stop: () => Promise<void> };

async function startSandbox(faults: boolean): Promise<Sandbox> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-faults-'));
  // With the test rows: the fixtures name the formula-injection records (the CSV guard's tests use them).
  const db = openDatabase(join(dir, 'sandbox.sqlite'), { testRows: true });
  const server = createSandbox({ db, faults, slowMs: SLOW_MS });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fixtures = (await (await fetch(`${base}/__sandbox/fixtures`)).json()) as Fixtures;
  return {
    base,
    fixtures,
    key: fixtures.accounts.find((a) => a.key === 'sk_sandbox_demo')!.key,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let on: Sandbox;
let off: Sandbox;

beforeAll(async () => {
  [on, off] = await Promise.all([startSandbox(true), startSandbox(false)]);
});

afterAll(async () => {
  await Promise.all([on?.stop(), off?.stop()]);
});

const get = (
  sandbox: Sandbox,
  path: string,
  headers: Record<string, string> = { Authorization: `Bearer ${sandbox.key}` },
) => fetch(sandbox.base + path, { headers });

/** Where a fault can be triggered, and what a good answer there looks like. */
type Target = {
  name: string;
  path: (kind: FaultKind) => string;
  schema: z.ZodType;
  /** The record inside a parsed body. */
  record: (body: unknown) => unknown;
  /** A field the seed does not define, carried by the `unknown` record. */
  extraField: string;
  /** Where the `badshape` record breaks the schema. */
  brokenPath: PropertyKey[];
};

const TARGETS: Target[] = [
  {
    name: 'collection id',
    path: (kind) => `/public/collections/${faultId('pay', kind)}`,
    schema: collectionEnvelopeSchema,
    record: (body) => (body as { data: unknown }).data,
    extraField: 'riskScore',
    brokenPath: ['data', 'amount', 'value'],
  },
  {
    name: 'provider id',
    path: (kind) => `/public/providers/${faultId('prv', kind)}`,
    schema: providerEnvelopeSchema,
    record: (body) => (body as { data: unknown }).data,
    extraField: 'region',
    brokenPath: ['data', 'enabled'],
  },
  {
    name: 'list page',
    path: (kind) => `/public/collections?page=${FAULT_PAGES[kind]}`,
    schema: collectionListEnvelopeSchema,
    record: (body) => (body as { data: unknown[] }).data[0],
    extraField: 'riskScore',
    brokenPath: ['data', 0, 'amount', 'value'],
  },
];

async function expectErrorEnvelope(res: Response, status: number) {
  expect(res.status).toBe(status);
  const body = await res.json();
  expect(body).toEqual({ status: 'error', message: expect.any(String) });
  return body as { message: string };
}

/** What each fault kind must do; one entry per kind in FAULT_KINDS. */
const EXPECTED: Record<FaultKind, (target: Target, send: () => Promise<Response>) => Promise<void>> = {
  async slow(target, send) {
    const started = performance.now();
    const res = await send();
    const body = await res.json();
    expect(performance.now() - started).toBeGreaterThanOrEqual(SLOW_MS - 50);
    expect(res.status).toBe(200);
    expect(target.schema.safeParse(body).success).toBe(true);
  },
  async '500'(_, send) {
    await expectErrorEnvelope(await send(), 500);
  },
  async '503'(_, send) {
    await expectErrorEnvelope(await send(), 503);
  },
  async malformed(_, send) {
    const res = await send();
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  },
  async badshape(target, send) {
    const res = await send();
    expect(res.status).toBe(200);
    const parsed = target.schema.safeParse(await res.json());
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => issue.path)).toContainEqual(target.brokenPath);
  },
  async unknown(target, send) {
    const res = await send();
    expect(res.status).toBe(200);
    const parsed = target.schema.safeParse(await res.json());
    expect(parsed.success).toBe(true);
    // Loose objects: fields the seed does not define survive parsing.
    expect(target.record(parsed.data)).toHaveProperty(target.extraField);
  },
  async '401'(_, send) {
    const body = await expectErrorEnvelope(await send(), 401);
    expect(body.message).toBe('Invalid API key');
  },
  async '429'(_, send) {
    const res = await send();
    expect(res.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
    await expectErrorEnvelope(res, 429);
  },
  async '400'(_, send) {
    await expectErrorEnvelope(await send(), 400);
  },
  async reset(_, send) {
    await expect(send()).rejects.toThrow(TypeError);
  },
  async empty(target, send) {
    const res = await send();
    expect(res.status).toBe(200);
    const parsed = target.schema.parse(await res.json()) as { data: unknown; meta?: unknown };
    if (target.name === 'list page') {
      expect(parsed).toMatchObject({ data: [], meta: { count: 0, next: null, prev: null } });
    } else if (target.name === 'collection id') {
      expect(parsed.data).toMatchObject({
        metadata: [],
        events: [],
        payable: { options: [] },
        followUp: { enabled: false },
      });
    } else {
      expect(parsed.data).toMatchObject({ enabled: false });
    }
  },
};

describe('fault injection on', () => {
  it('has an expectation for every fault kind', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...FAULT_KINDS].sort());
  });

  it('advertises the reserved ids and pages through /__sandbox/fixtures', () => {
    const faults = on.fixtures.faults as {
      enabled: boolean;
      collections: Record<string, string>;
      providers: Record<string, string>;
      listPages: Record<string, number>;
    };
    expect(faults.enabled).toBe(true);
    for (const kind of FAULT_KINDS) {
      expect(faults.collections[kind]).toBe(faultId('pay', kind));
      expect(faults.providers[kind]).toBe(faultId('prv', kind));
      expect(faults.listPages[kind]).toBe(FAULT_PAGES[kind]);
    }
  });

  describe.each(TARGETS)('on a $name', (target) => {
    it.concurrent.each([...FAULT_KINDS])('%s', async (kind) => {
      await EXPECTED[kind](target, () => get(on, target.path(kind)));
    });
  });

  it('still authenticates first: a fault id or page without a key gives 401', async () => {
    for (const target of TARGETS) {
      const res = await get(on, target.path('500'), {});
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ status: 'error', message: 'Invalid API key' });
    }
  });

  it('leaves ordinary ids and pages alone', async () => {
    const demo = on.fixtures.accounts.find((a) => a.key === on.key)!;
    const one = await get(on, `/public/collections/${demo.collections.integrated[0]}`);
    expect(collectionEnvelopeSchema.parse(await one.json()).data.id).toBe(demo.collections.integrated[0]);
    const list = await get(on, '/public/collections?page=2');
    expect(collectionListEnvelopeSchema.parse(await list.json()).meta).toEqual({ count: 253, next: 3, prev: 1 });
    await expect(get(on, '/public/collections/pay_fault_nosuchkind')).resolves.toHaveProperty('status', 404);
  });

  it('does not hold up other requests while a slow answer is pending', async () => {
    const order: string[] = [];
    const slow = get(on, `/public/collections/${faultId('pay', 'slow')}`).then(() => order.push('slow'));
    const quick = get(on, '/public/collections').then(() => order.push('quick'));
    await Promise.all([slow, quick]);
    expect(order).toEqual(['quick', 'slow']);
  });

  describe.each([
    ['collection', 'pay', collectionEnvelopeSchema],
    ['provider', 'prv', providerEnvelopeSchema],
  ] as const)('flaky %s ids', (_, prefix, schema) => {
    const path = (token: string) =>
      `/public/${prefix === 'pay' ? 'collections' : 'providers'}/${faultId(prefix, `flaky-${token}`)}`;
    const statuses = async (token: string, times: number) => {
      const seen: number[] = [];
      for (let i = 0; i < times; i++) {
        const res = await get(on, path(token));
        seen.push(res.status);
        if (res.status === 200) expect(schema.safeParse(await res.json()).success).toBe(true);
        else await expectErrorEnvelope(res, 503);
      }
      return seen;
    };

    it('fail with 503 twice, then answer with the record', async () => {
      expect(await statuses(randomUUID(), 4)).toEqual([503, 503, 200, 200]);
    });

    it('count each token on its own, even in parallel', async () => {
      const [a, b] = await Promise.all([statuses(randomUUID(), 3), statuses(randomUUID(), 3)]);
      expect(a).toEqual([503, 503, 200]);
      expect(b).toEqual([503, 503, 200]);
    });
  });
});

describe('fault injection off', () => {
  it('says so in /__sandbox/fixtures', () => {
    expect(off.fixtures.faults).toEqual({ enabled: false });
  });

  it('treats reserved ids as ordinary ids that nobody owns', async () => {
    for (const kind of FAULT_KINDS) {
      const collection = await get(off, `/public/collections/${faultId('pay', kind)}`);
      expect(await collection.json()).toEqual({ status: 'error', message: 'Collection not found' });
      expect(collection.status).toBe(404);
      const provider = await get(off, `/public/providers/${faultId('prv', kind)}`);
      expect(await provider.json()).toEqual({ status: 'error', message: 'Provider not found' });
      expect(provider.status).toBe(404);
    }
    const flaky = await get(off, `/public/collections/${faultId('pay', `flaky-${randomUUID()}`)}`);
    expect(flaky.status).toBe(404);
  });

  it('answers reserved list pages as empty pages past the end, without delay', async () => {
    for (const kind of FAULT_KINDS) {
      const started = performance.now();
      const res = await get(off, `/public/collections?page=${FAULT_PAGES[kind]}`);
      expect(res.status).toBe(200);
      const body = collectionListEnvelopeSchema.parse(await res.json());
      expect(body.data).toEqual([]);
      expect(body.meta).toEqual({ count: 253, next: null, prev: FAULT_PAGES[kind] - 1 });
      expect(performance.now() - started).toBeLessThan(SLOW_MS);
    }
  });
});

describe('request log', () => {
  it('records what the upstream was asked, with faults on only', async () => {
    const marker = randomUUID().slice(0, 8);
    await fetch(`${on.base}/public/collections?page=1&limit=3&m=${marker}`, { headers: { 'X-API-Key': on.key } });
    const log = (await (await fetch(`${on.base}/__sandbox/requests`)).json()) as {
      data: { method: string; path: string; status: number }[];
    };
    expect(log.data.find((r) => r.path.includes(marker))).toMatchObject({ method: 'GET', status: 200 });
    expect((await fetch(`${off.base}/__sandbox/requests`)).status).toBe(404);
  });

  it('puts the formula-injection records among the demo account’s listed collections', () => {
    expect(on.fixtures.accounts.find((a) => a.id === 'acc_demo')!.formulaInjection).toHaveLength(6);
  });
});
