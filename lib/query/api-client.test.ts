import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, apiResponse, isApiFailure } from './api-client';

/** A real HTTP server answering as the dashboard (or something in front of it) might. */
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    if (path === '/api/ok') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":1}');
    if (path === '/api/missing')
      return void res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"status":"error","message":"Collection not found","code":"not_found"}');
    if (path === '/api/limited')
      return void res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' })
        .end('{"status":"error","message":"Rate limited","code":"rate_limited"}');
    if (path === '/api/proxy-502')
      return void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    if (path === '/api/proxy-504') return void res.writeHead(504).end();
    if (path === '/api/proxy-401') return void res.writeHead(401, { 'content-type': 'text/plain' }).end('Sign in');
    if (path === '/api/slow') return void setTimeout(() => res.writeHead(200).end('{}'), 300);
    if (path === '/api/broken') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":');
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const via = (origin: () => string) => ({
  fetchImpl: (path: string, init: RequestInit) => fetch(`${origin()}${path}`, init),
});
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('the browser’s /api client', () => {
  it('answers the body of an OK envelope', async () => {
    expect(
      await apiGet(
        '/api/ok',
        via(() => base),
      ),
    ).toEqual({ data: 1 });
  });

  it('rejects with the envelope’s own code and message, and Retry-After', async () => {
    expect(
      await rejection(
        apiGet(
          '/api/missing',
          via(() => base),
        ),
      ),
    ).toEqual({
      code: 'not_found',
      message: 'Collection not found',
      retryAfter: undefined,
    });
    expect(
      await rejection(
        apiGet(
          '/api/limited',
          via(() => base),
        ),
      ),
    ).toMatchObject({
      code: 'rate_limited',
      retryAfter: 7,
    });
  });

  it('names a failure by its status when something in between answered', async () => {
    expect(
      await rejection(
        apiGet(
          '/api/proxy-502',
          via(() => base),
        ),
      ),
    ).toMatchObject({ code: 'upstream_error' });
    expect(
      await rejection(
        apiGet(
          '/api/proxy-504',
          via(() => base),
        ),
      ),
    ).toMatchObject({ code: 'upstream_timeout' });
  });

  it('gives up after its time limit, and a body that breaks off is a failure too', async () => {
    expect(await rejection(apiGet('/api/slow', { ...via(() => base), timeoutMs: 50 }))).toMatchObject({
      code: 'upstream_timeout',
    });
    expect(
      await rejection(
        apiGet(
          '/api/broken',
          via(() => base),
        ),
      ),
    ).toMatchObject({ code: 'upstream_unreachable' });
  });

  it('says the dashboard could not be reached when nothing answers', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(
      await rejection(
        apiGet(
          '/api/ok',
          via(() => origin),
        ),
      ),
    ).toMatchObject({ code: 'upstream_unreachable' });
  });

  it('passes the caller’s abort on as an abort, not as a failure', async () => {
    const controller = new AbortController();
    const asked = apiGet('/api/slow', { ...via(() => base), signal: controller.signal });
    controller.abort();
    const error = await rejection(asked);
    expect(isApiFailure(error)).toBe(false);
    expect((error as Error).name).toBe('AbortError');
  });

  it('asks nothing but the dashboard’s own /api', async () => {
    await expect(apiResponse('https://elsewhere.example/api/ok')).rejects.toThrow('not a dashboard API path');
    await expect(apiResponse('/collections')).rejects.toThrow('not a dashboard API path');
  });
});
