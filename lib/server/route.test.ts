import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

/**
 * The one route wrapper, driven as Next drives it (a Request and a params
 * promise): input first, then the gate, then the read, and every failure in
 * the contract's envelope.
 */
let route: typeof import('./route');
let errors: typeof import('./errors');

beforeAll(async () => {
  vi.stubEnv('DASHBOARD_USERS', 'ada:s3cret');
  vi.resetModules();
  route = await import('./route');
  errors = await import('./errors');
});
afterAll(() => vi.unstubAllEnvs());

const signedIn = { authorization: `Basic ${Buffer.from('ada:s3cret').toString('base64')}` };
const call = (
  handler: { GET: (r: Request, c: { params: Promise<unknown> }) => Promise<Response> },
  url: string,
  headers: Record<string, string> = signedIn,
  params: unknown = {},
) => handler.GET(new Request(url, { headers }), { params: Promise.resolve(params) });

describe('apiRoute', () => {
  const params = z.object({ id: z.string().startsWith('pay_', 'Invalid collection id') });

  it('answers the read in JSON, no-store, with the principal the gate found', async () => {
    const handler = route.apiRoute({
      route: '/api/test',
      subject: 'collection',
      params,
      read: async ({ params: p }, ctx) => ({ id: p.id, user: ctx.principal }),
    });
    const res = await call(handler, 'http://x/api/collections/pay_1', signedIn, { id: 'pay_1' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(await res.json()).toEqual({
      id: 'pay_1',
      user: { kind: 'user', via: 'basic', name: 'ada', displayName: 'ada', role: 'admin', globalRole: 'admin' },
    });
  });

  it('refuses bad input with a 400 naming it, before the read', async () => {
    const read = vi.fn();
    const handler = route.apiRoute({ route: '/api/test', subject: 'collection', params, read });
    const res = await call(handler, 'http://x/api/collections/x', signedIn, { id: 'x' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: 'error', message: 'Invalid collection id', code: 'bad_request' });
    expect(read).not.toHaveBeenCalled();
  });

  it('answers 401 before anything else: without credentials even bad input learns nothing', async () => {
    const read = vi.fn();
    const handler = route.apiRoute({ route: '/api/test', subject: 'collection', params, read });
    const res = await call(handler, 'http://x/api/collections/x', {}, { id: 'x' });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('unauthorized');
    expect(read).not.toHaveBeenCalled();
  });

  it('runs the gate: 401 with WWW-Authenticate, and the read never runs', async () => {
    const read = vi.fn();
    const res = await call(
      route.apiRoute({ route: '/api/test', subject: 'collections', read }),
      'http://x/api/collections',
      {},
    );
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await res.json()).code).toBe('unauthorized');
    expect(read).not.toHaveBeenCalled();
  });

  it('maps a failure of the read, Retry-After included', async () => {
    const handler = route.apiRoute({
      route: '/api/test',
      subject: 'collections',
      read: () => Promise.reject(errors.AppError.of('rate_limited', 'collections', { retryAfter: 7 })),
    });
    const res = await call(handler, 'http://x/api/collections');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({
      status: 'error',
      message: 'Rate limited by the upstream API, retry in 7 s',
      code: 'rate_limited',
    });
  });

  it('turns an unexpected error into upstream_error without its text', async () => {
    const handler = route.apiRoute({
      route: '/api/test',
      subject: 'collections',
      read: () => Promise.reject(new Error('secret internals')),
    });
    const res = await call(handler, 'http://x/api/collections');
    expect(res.status).toBe(502);
    const body = await res.text();
    expect(JSON.parse(body).code).toBe('upstream_error');
    expect(body).not.toContain('secret internals');
  });

  it('answers anything but GET with 405 and Allow: GET, behind the gate', async () => {
    const handler = route.apiRoute({ route: '/api/test', subject: 'collections', read: async () => null });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
      const res = await handler[method](new Request('http://x/api/test', { method, headers: signedIn }));
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const refused = await handler[method](new Request('http://x/api/test', { method }));
      expect(refused.status, method).toBe(401);
    }
  });

  it('gives every answer the security headers, no-store and a request id of its own (never the client’s)', async () => {
    const handler = route.apiRoute({
      route: '/api/test',
      subject: 'collections',
      read: async (_input, ctx) => ({ requestId: ctx.requestId }),
    });
    const forged = { 'x-request-id': 'forged-by-the-client' };
    for (const [headers, status] of [
      [{ ...signedIn, ...forged }, 200],
      [forged, 401],
    ] as const) {
      const res = await call(handler, 'http://x/api/test', headers);
      expect(res.status).toBe(status);
      const id = res.headers.get('x-request-id')!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      if (status === 200) expect((await res.json()).requestId).toBe(id);
      expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
    const behindTls = await call(handler, 'http://x/api/test', { ...signedIn, 'x-forwarded-proto': 'https' });
    expect(behindTls.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('keeps a download untransformed', async () => {
    const handler = route.apiRoute({
      route: '/api/test',
      subject: 'collections',
      download: true,
      read: async () => new Response('a,b\n', { headers: { 'Content-Type': 'text/csv' } }),
    });
    const res = await call(handler, 'http://x/api/test.csv');
    expect(res.headers.get('cache-control')).toBe('private, no-store, no-transform');
    expect(res.headers.get('content-type')).toBe('text/csv');
  });

  it('refuses a viewer on an admins-only route with 403 forbidden_role, and the read never runs', async () => {
    vi.stubEnv('DASHBOARD_USERS', 'ada:s3cret,vic:v1ew3r');
    vi.stubEnv('DASHBOARD_ADMINS', 'ada');
    vi.resetModules();
    const viewerRoute = await import('./route');
    const read = vi.fn(async () => ({ status: 'success' }));
    const handler = viewerRoute.apiRoute({ route: '/api/test', subject: 'collections', admin: true, read });
    const viewer = { authorization: `Basic ${Buffer.from('vic:v1ew3r').toString('base64')}` };
    const res = await call(handler, 'http://x/api/audit', viewer);
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('forbidden_role');
    expect(read).not.toHaveBeenCalled();
    expect((await call(handler, 'http://x/api/audit', signedIn)).status).toBe(200);
    vi.stubEnv('DASHBOARD_USERS', 'ada:s3cret');
    vi.stubEnv('DASHBOARD_ADMINS', '');
  });
});

describe('unknownApiRoute', () => {
  it('is behind the gate, then a 404 in the envelope for every method', async () => {
    const handler = route.unknownApiRoute();
    for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS'] as const) {
      const refused = await handler[method](new Request('http://x/api/nope', { method }));
      expect(refused.status).toBe(401);
      const res = await handler[method](new Request('http://x/api/nope', { method, headers: signedIn }));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ status: 'error', message: 'No such API route', code: 'not_found' });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
    }
  });
});

describe('openRoute', () => {
  it('answers without the gate, with the same headers; other methods 405', async () => {
    const handler = route.openRoute(() => Response.json({ ok: true }));
    const res = await handler.GET(new Request('http://x/api/health'));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const post = await handler.POST(new Request('http://x/api/health', { method: 'POST' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('next.config.mjs headers() for /api', () => {
  it('sets only static headers, each with the value the routes give (Next applies them over a route’s own)', async () => {
    const config = (await import('@/next.config.mjs')).default as {
      headers: () => Promise<{ source: string; headers: { key: string; value: string }[] }[]>;
    };
    const { securityHeaders } = await import('./security-headers');
    const ours = securityHeaders({ nonce: 'n', dev: false, https: false });
    const api = (await config.headers()).find((rule) => rule.source === '/api/:path*')!;
    expect(api.headers.length).toBeGreaterThanOrEqual(4);
    for (const { key, value } of api.headers) expect(ours[key], key).toBe(value);
    // The CSP (a nonce per answer), Cache-Control (no-transform on a download) and the request id: routes only.
    for (const key of ['Content-Security-Policy', 'Cache-Control', 'X-Request-Id'])
      expect(api.headers.map((h) => h.key)).not.toContain(key);
  });
});
