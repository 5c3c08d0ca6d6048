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
      user: { kind: 'user', via: 'basic', name: 'ada', displayName: 'ada', role: 'admin' },
    });
  });

  it('refuses bad input with a 400 naming it, before the gate or the read', async () => {
    const read = vi.fn();
    const handler = route.apiRoute({ route: '/api/test', subject: 'collection', params, read });
    const res = await call(handler, 'http://x/api/collections/x', {}, { id: 'x' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: 'error', message: 'Invalid collection id', code: 'bad_request' });
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

  it('answers anything but GET with 405 and Allow: GET', async () => {
    const res = route.apiRoute({ route: '/api/test', subject: 'collections', read: async () => null }).POST();
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });
});
