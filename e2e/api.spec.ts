import { FAULT_PAGES } from '../sandbox/faults';
import { SANDBOX_KEYS } from './env';
import { expect, test } from './fixtures';

/** The dashboard's own API (contract section 4), over HTTP against the sandbox. */

test.describe('GET /api/collections', () => {
  test('returns the first page in the seed envelope with meta', async ({ request, sandbox }) => {
    const res = await request.get('/api/collections');
    expect(res.status()).toBe(200);
    expect(res.headers()['cache-control']).toBe('private, no-store');
    const body = await res.json();
    expect(body).toMatchObject({
      status: 'success',
      meta: { count: sandbox.demo.listedCollections, next: 2, prev: null },
    });
    expect(body.data).toHaveLength(10);
    expect(body.data[0].id).toBe(sandbox.demo.collections.integrated[0]);
  });

  test('pages through with page and limit, and answers past the end with an empty page', async ({
    request,
    sandbox,
  }) => {
    const count = sandbox.demo.listedCollections;
    const last = Math.ceil(count / 100);
    const page = await (await request.get(`/api/collections?page=${last}&limit=100`)).json();
    expect(page.meta).toEqual({ count, next: null, prev: last - 1, source: 'upstream' });
    expect(page.data).toHaveLength(count - (last - 1) * 100);
    const past = await (await request.get(`/api/collections?page=${last + 5}&limit=100`)).json();
    expect(past).toMatchObject({ status: 'success', data: [], meta: { count, next: null } });
  });

  for (const query of [
    'limit=1000',
    'limit=0',
    'page=-1',
    'page=0',
    'page=abc',
    'page=1.5',
    'limit=1e3',
    'limit=0x10',
    'page=%201',
    'limit=10&limit=20',
  ]) {
    test(`rejects ${query} with 400 before calling upstream`, async ({ request }) => {
      const res = await request.get(`/api/collections?${query}`);
      expect(res.status()).toBe(400);
      expect(res.headers()['cache-control']).toBe('private, no-store');
      const body = await res.json();
      expect(body).toEqual({
        status: 'error',
        message: expect.stringMatching(/^Invalid page or limit: /),
        code: 'bad_request',
      });
    });
  }

  const listFaults = [
    ['500', 502, 'upstream_error'],
    ['malformed', 502, 'upstream_invalid'],
    ['badshape', 502, 'upstream_invalid'],
    ['401', 502, 'upstream_auth'],
    ['400', 502, 'upstream_rejected'],
    ['reset', 502, 'upstream_unreachable'],
    ['slow', 504, 'upstream_timeout'],
  ] as const;
  for (const [fault, status, code] of listFaults) {
    test(`maps an upstream ${fault} on the list to ${status} ${code}`, async ({ request }) => {
      const res = await request.get(`/api/collections?page=${FAULT_PAGES[fault]}`);
      expect(res.status()).toBe(status);
      expect((await res.json()).code).toBe(code);
    });
  }
});

test.describe('GET /api/collections/{id} and /api/providers/{id}', () => {
  test('returns a collection, a non-integrated one too', async ({ request, sandbox }) => {
    for (const id of [sandbox.demo.collections.integrated[1]!, sandbox.demo.collections.notIntegrated[0]!]) {
      const res = await request.get(`/api/collections/${id}`);
      expect(res.status()).toBe(200);
      expect((await res.json()).data.id).toBe(id);
    }
  });

  test('returns a provider', async ({ request, sandbox }) => {
    const res = await request.get(`/api/providers/${sandbox.demo.providers[0]}`);
    expect(res.status()).toBe(200);
    expect((await res.json()).data).toMatchObject({ id: sandbox.demo.providers[0], slug: expect.any(String) });
  });

  test('keeps unknown enum values and extra fields', async ({ request }) => {
    const body = await (await request.get('/api/collections/pay_fault_unknown')).json();
    expect(body.data).toMatchObject({
      status: 'partially_paid',
      riskScore: 0.42,
      followUp: { channels: ['whatsapp', 'carrier_pigeon'] },
    });
  });

  test('says 404 and 403 in its own words', async ({ request, sandbox }) => {
    const missing = await request.get('/api/collections/pay_doesnotexist');
    expect(missing.status()).toBe(404);
    expect(await missing.json()).toEqual({ status: 'error', message: 'Collection not found', code: 'not_found' });
    const foreign = await request.get(`/api/collections/${sandbox.other.collections.integrated[0]}`);
    expect(foreign.status()).toBe(403);
    expect(await foreign.json()).toEqual({
      status: 'error',
      message: 'This collection belongs to a different account',
      code: 'forbidden',
    });
    const foreignProvider = await request.get(`/api/providers/${sandbox.other.providers[0]}`);
    expect(await foreignProvider.json()).toEqual({
      status: 'error',
      message: 'This provider belongs to a different account',
      code: 'forbidden',
    });
  });

  for (const id of [
    'abc',
    'prv_abc',
    'pay_',
    'pay_%2e%2e',
    'pay_%252e%252e',
    'pay_..%2F..%2Fadmin',
    '..%2F..%2Fpublic%2Fproviders%2Fprv_x',
    '%2F%2Fevil.example%2Fx',
    'http%3A%2F%2F169.254.169.254%2F',
    'pay_a%5Cb',
    'pay_a%0d%0aX-Injected:%201',
    'pay_a%00',
    `pay_${'a'.repeat(129)}`,
    `pay_${'a'.repeat(10_240)}`,
  ]) {
    test(`rejects the collection id ${id.length > 40 ? `${id.slice(0, 12)}… (${id.length} characters)` : id} with 400`, async ({
      request,
    }) => {
      const res = await request.get(`/api/collections/${id}`);
      expect(res.status()).toBe(400);
      expect(await res.json()).toEqual({ status: 'error', message: 'Invalid collection id', code: 'bad_request' });
    });
  }

  test('rejects a malformed provider id with 400', async ({ request }) => {
    const res = await request.get('/api/providers/pay_abc');
    expect(res.status()).toBe(400);
    expect((await res.json()).code).toBe('bad_request');
  });

  const faults = [
    ['500', 502, 'upstream_error'],
    ['503', 502, 'upstream_error'],
    ['malformed', 502, 'upstream_invalid'],
    ['badshape', 502, 'upstream_invalid'],
    ['401', 502, 'upstream_auth'],
    ['400', 502, 'upstream_rejected'],
    ['reset', 502, 'upstream_unreachable'],
    ['slow', 504, 'upstream_timeout'],
    ['429', 429, 'rate_limited'],
  ] as const;
  for (const [fault, status, code] of faults) {
    test(`maps an upstream ${fault} to ${status} ${code}`, async ({ request }) => {
      for (const path of [`/api/collections/pay_fault_${fault}`, `/api/providers/prv_fault_${fault}`]) {
        const res = await request.get(path);
        expect(res.status()).toBe(status);
        expect(res.headers()['cache-control']).toBe('private, no-store');
        const body = await res.json();
        expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status']);
        expect(body.code).toBe(code);
        if (fault === '429') expect(res.headers()['retry-after']).toBe('7');
      }
    });
  }

  test('retries a transient failure and answers 200', async ({ request }) => {
    const res = await request.get(`/api/collections/pay_fault_flaky-${test.info().testId}`);
    expect(res.status()).toBe(200);
  });
});

test.describe('methods and leaks', () => {
  for (const method of ['post', 'put', 'patch', 'delete'] as const) {
    test(`answers ${method.toUpperCase()} with 405 and Allow: GET`, async ({ request }) => {
      for (const path of ['/api/collections', '/api/collections/pay_abc', '/api/providers/prv_abc']) {
        const res = await request[method](path);
        expect(res.status()).toBe(405);
        expect(res.headers().allow).toBe('GET');
        expect(await res.json()).toEqual({
          status: 'error',
          message: 'Only GET is allowed here',
          code: 'method_not_allowed',
        });
      }
    });
  }

  test('never sends the key or upstream headers to the browser', async ({ request, sandbox }) => {
    const paths = [
      '/api/collections?limit=100',
      `/api/collections/${sandbox.demo.collections.integrated[0]}`,
      `/api/providers/${sandbox.demo.providers[0]}`,
      '/api/collections/pay_fault_401',
      '/api/collections/pay_fault_500',
      '/api/collections/pay_fault_malformed',
      `/api/collections/${sandbox.other.collections.integrated[0]}`,
    ];
    for (const path of paths) {
      const res = await request.get(path);
      const everything = JSON.stringify(res.headers()) + (await res.text());
      for (const key of SANDBOX_KEYS) expect(everything).not.toContain(key);
      expect(everything).not.toContain('Internal server error');
      expect(everything).not.toContain('Invalid API key');
      expect(res.headers()['x-powered-by']).toBeUndefined();
    }
  });
});
