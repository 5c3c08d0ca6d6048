import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectionEnvelopeSchema, collectionListEnvelopeSchema, providerEnvelopeSchema } from '@/lib/api/envelopes';
import { startSandbox, type TestSandbox } from '@/test/sandbox';
import { FAULT_PAGES } from '@/sandbox/faults';
import { logger } from './logger';
import { createUpstreamClient, parseRetryAfter, upstreamUrl, type UpstreamOptions } from './upstream';
import { AppError } from './errors';

let sandbox: TestSandbox;
const logs: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ faults: true, slowMs: 1_500 });
  for (const level of ['info', 'warn', 'error'] as const) {
    vi.spyOn(logger, level).mockImplementation(((...args: unknown[]) => void logs.push(JSON.stringify(args))) as never);
  }
});
afterAll(() => sandbox.close());

function client(overrides: Partial<UpstreamOptions> = {}) {
  return createUpstreamClient({
    baseUrl: sandbox.url,
    key: 'sk_sandbox_demo',
    keyHeader: 'Authorization',
    timeoutMs: 800,
    retryDelayMs: 10,
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('upstream client against the sandbox', () => {
  it('lists a page with the Authorization header', async () => {
    const body = await client().get({ kind: 'list', page: 2, limit: 5 }, collectionListEnvelopeSchema);
    expect(body.data).toHaveLength(5);
    expect(body.meta).toEqual({ count: sandbox.demo.listedCollections, next: 3, prev: 1 });
  });

  it('sends the key as is in a custom header', async () => {
    const id = sandbox.demo.collections.integrated[0]!;
    const body = await client({ keyHeader: 'X-API-Key' }).get({ kind: 'collection', id }, collectionEnvelopeSchema);
    expect(body.data.id).toBe(id);
  });

  it('reads a provider and a non-integrated collection', async () => {
    const provider = await client().get({ kind: 'provider', id: sandbox.demo.providers[0]! }, providerEnvelopeSchema);
    expect(provider.data.id).toBe(sandbox.demo.providers[0]);
    const hidden = await client().get(
      { kind: 'collection', id: sandbox.demo.collections.notIntegrated[0]! },
      collectionEnvelopeSchema,
    );
    expect(hidden.data.type).not.toBe('integrated');
  });

  it('keeps unknown enum values and extra fields', async () => {
    const body = await client().get({ kind: 'collection', id: 'pay_fault_unknown' }, collectionEnvelopeSchema);
    expect(body.data.status).toBe('partially_paid');
    expect((body.data as Record<string, unknown>).riskScore).toBe(0.42);
  });

  it.each([
    [
      'another account’s id',
      () => sandbox.other.collections.integrated[0]!,
      'forbidden',
      'This collection belongs to a different account',
    ],
    ['an unknown id', () => 'pay_doesnotexist', 'not_found', 'Collection not found'],
    [
      'a 401',
      () => 'pay_fault_401',
      'upstream_auth',
      "The upstream API rejected the dashboard's API key (check API_KEY)",
    ],
    ['a 400', () => 'pay_fault_400', 'upstream_rejected', 'The upstream API rejected the request'],
    ['a 500', () => 'pay_fault_500', 'upstream_error', 'The upstream API failed to answer'],
    ['a 503 every time', () => 'pay_fault_503', 'upstream_error', 'The upstream API failed to answer'],
    [
      'malformed JSON',
      () => 'pay_fault_malformed',
      'upstream_invalid',
      'The upstream API returned data the dashboard cannot read',
    ],
    [
      'a record that breaks the schema',
      () => 'pay_fault_badshape',
      'upstream_invalid',
      'The upstream API returned data the dashboard cannot read',
    ],
    ['a reset connection', () => 'pay_fault_reset', 'upstream_unreachable', 'The upstream API could not be reached'],
  ])('maps %s to %s', async (_, id, code, message) => {
    const error = await failure(client().get({ kind: 'collection', id: id() }, collectionEnvelopeSchema));
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
  });

  it('maps a 429 to rate_limited with the wait', async () => {
    const error = await failure(client().get({ kind: 'provider', id: 'prv_fault_429' }, providerEnvelopeSchema));
    expect(error).toMatchObject({ code: 'rate_limited', retryAfter: 7 });
  });

  it('maps a wrong key to upstream_auth, never to a 401 for the user', async () => {
    const error = await failure(
      client({ key: 'sk_wrong' }).get({ kind: 'list', page: 1, limit: 10 }, collectionListEnvelopeSchema),
    );
    expect(error.code).toBe('upstream_auth');
  });

  it('maps list faults chosen by page', async () => {
    const list = (page: number) => client().get({ kind: 'list', page, limit: 10 }, collectionListEnvelopeSchema);
    expect((await failure(list(FAULT_PAGES['500']))).code).toBe('upstream_error');
    expect((await failure(list(FAULT_PAGES.badshape))).code).toBe('upstream_invalid');
    expect((await failure(list(FAULT_PAGES.malformed))).code).toBe('upstream_invalid');
  });

  it('gives up at the deadline with upstream_timeout', async () => {
    const started = performance.now();
    const error = await failure(
      client({ timeoutMs: 300 }).get({ kind: 'collection', id: 'pay_fault_slow' }, collectionEnvelopeSchema),
    );
    expect(error.code).toBe('upstream_timeout');
    expect(error.message).toBe('The upstream API did not answer within 300 ms');
    expect(performance.now() - started).toBeLessThan(1_400);
  });

  it('lets go of a finished call at once: its deadline is cleared, not left running for the timeout', async () => {
    // A deadline left running keeps the call's signal, and the request its listeners hold, in memory until it fires.
    const set = vi.spyOn(globalThis, 'setTimeout');
    const clear = vi.spyOn(globalThis, 'clearTimeout');
    try {
      const slow = client({ timeoutMs: 60_000 });
      await slow.get({ kind: 'list', page: 1, limit: 5 }, collectionListEnvelopeSchema);
      await failure(slow.get({ kind: 'collection', id: 'pay_doesnotexist' }, collectionEnvelopeSchema));
      const deadlines = set.mock.calls.flatMap(([, ms], n) => (ms === 60_000 ? [set.mock.results[n]!.value] : []));
      expect(deadlines).toHaveLength(2);
      for (const timer of deadlines) expect(clear).toHaveBeenCalledWith(timer);
    } finally {
      set.mockRestore();
      clear.mockRestore();
    }
  });

  it('retries transient failures twice and then succeeds', async () => {
    const token = `flaky-${Math.random().toString(36).slice(2)}`;
    const body = await client().get({ kind: 'collection', id: `pay_fault_${token}` }, collectionEnvelopeSchema);
    expect(body.data.id).toBe(`pay_fault_${token}`);
  });

  it('does not retry what cannot change (a 500 is tried once)', async () => {
    logs.length = 0;
    await failure(client().get({ kind: 'collection', id: 'pay_fault_500' }, collectionEnvelopeSchema));
    expect(logs.filter((l) => l.includes('upstream error'))).toHaveLength(1);
    logs.length = 0;
    await failure(client().get({ kind: 'collection', id: 'pay_fault_503' }, collectionEnvelopeSchema));
    expect(logs.filter((l) => l.includes('upstream error'))).toHaveLength(3);
  });

  it('maps an unreachable host to upstream_unreachable', async () => {
    const error = await failure(
      client({ baseUrl: 'http://127.0.0.1:9' }).get({ kind: 'list', page: 1, limit: 10 }, collectionListEnvelopeSchema),
    );
    expect(error.code).toBe('upstream_unreachable');
  });

  it('logs the failing field of a schema break, and never the key', async () => {
    logs.length = 0;
    await failure(
      client({ key: 'sk_sandbox_demo' }).get(
        { kind: 'collection', id: 'pay_fault_badshape' },
        collectionEnvelopeSchema,
      ),
    );
    await failure(
      client({ key: 'sk_wrong_secret_key' }).get({ kind: 'collection', id: 'pay_x' }, collectionEnvelopeSchema),
    );
    const all = logs.join('\n');
    expect(all).toContain('data.amount.value');
    // No record content (customers' PII) in the logs either.
    expect(all).not.toContain('Ünïcode');
    expect(all).not.toContain('sk_sandbox_demo');
    expect(all).not.toContain('sk_wrong_secret_key');
  });
});

describe('upstreamUrl', () => {
  const base = 'https://api.example.com/v1';

  it('builds the three fixed templates', () => {
    expect(upstreamUrl(base, { kind: 'list', page: 2, limit: 25 })).toBe(
      'https://api.example.com/v1/public/collections?page=2&limit=25',
    );
    expect(upstreamUrl(base, { kind: 'collection', id: 'pay_abc' })).toBe(
      'https://api.example.com/v1/public/collections/pay_abc',
    );
    expect(upstreamUrl(base, { kind: 'provider', id: 'prv_abc' })).toBe(
      'https://api.example.com/v1/public/providers/prv_abc',
    );
  });

  it.each(['pay_../../admin', '//evil.example/x', 'pay_a%2f..', 'prv_abc', 'pay_a\r\nHost: evil'])(
    'refuses the id %j before any request',
    (id) => {
      expect(() => upstreamUrl(base, { kind: 'collection', id })).toThrow(AppError);
    },
  );

  it('refuses a page or limit out of range', () => {
    expect(() => upstreamUrl(base, { kind: 'list', page: 0, limit: 10 })).toThrow(AppError);
    expect(() => upstreamUrl(base, { kind: 'list', page: 1, limit: 101 })).toThrow(AppError);
    expect(() => upstreamUrl(base, { kind: 'list', page: 1.5, limit: 10 })).toThrow(AppError);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('7')).toBe(7);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', Date.parse('2026-11-22T10:00:00Z'))).toBe(30);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('concurrency limit', () => {
  it('keeps at most maxConcurrent upstream requests in flight and still answers all', async () => {
    const c = createUpstreamClient({
      baseUrl: sandbox.url,
      key: 'sk_sandbox_demo',
      keyHeader: 'Authorization',
      timeoutMs: 5_000,
      maxConcurrent: 2,
    });
    let inFlight = 0;
    let peak = 0;
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (...args) => {
      peak = Math.max(peak, ++inFlight);
      try {
        return await realFetch(...args);
      } finally {
        inFlight--;
      }
    });
    try {
      const pages = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          c.get({ kind: 'list', page: i + 1, limit: 5 }, collectionListEnvelopeSchema),
        ),
      );
      expect(pages.map((p) => p.data.length)).toEqual(Array(8).fill(5));
      expect(peak).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });
});
