import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type TestSandbox } from '@/test/sandbox';

/**
 * The data layer checks the gate itself, so a request that slips past
 * proxy.ts still gets nothing. Proven here without proxy.ts in the way: a
 * read needs a context, and only the gate (or a background job) issues one.
 */
let sandbox: TestSandbox;
let data: typeof import('./data');
let context: typeof import('./context');
/** The runtime the server hands every read (built here as the server builds it). */
let rt: import('./runtime').Runtime;

const basic = (credentials: string) =>
  new Headers({ authorization: `Basic ${Buffer.from(credentials).toString('base64')}` });

beforeAll(async () => {
  sandbox = await startSandbox();
  vi.stubEnv('SANDBOX_PORT', new URL(sandbox.url).port);
  vi.stubEnv('DASHBOARD_USERS', 'ada:s3cret');
  vi.resetModules();
  data = await import('./data');
  context = await import('./context');
  rt = (await import('./runtime')).runtime();
});
afterAll(async () => {
  await rt?.stop();
  vi.unstubAllEnvs();
  await sandbox.close();
});

describe('data layer access check', () => {
  it('refuses to read without credentials, before any upstream call', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    try {
      await expect(context.contextFromHeaders(new Headers())).rejects.toMatchObject({ code: 'unauthorized' });
      // A context the gate did not issue (forged, copied, deserialised) reads nothing either.
      const forged = {
        requestId: 'r1',
        principal: { kind: 'user', via: 'basic', name: 'ada', displayName: 'ada', role: 'admin', globalRole: 'admin' },
        account: 'default',
      } as const;
      await expect(data.listCollections(rt, forged, { page: 1, limit: 10 })).rejects.toMatchObject({
        code: 'unauthorized',
      });
      await expect(data.getCollection(rt, forged, sandbox.demo.collections.integrated[0]!)).rejects.toMatchObject({
        code: 'unauthorized',
      });
      await expect(data.getProvider(rt, { ...forged }, sandbox.demo.providers[0]!)).rejects.toMatchObject({
        code: 'unauthorized',
      });
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it('refuses wrong credentials', async () => {
    await expect(context.contextFromHeaders(basic('ada:wrong'))).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('reads with valid credentials, under the request id proxy.ts assigned', async () => {
    const headers = basic('ada:s3cret');
    headers.set('x-request-id', 'req-42');
    const ctx = await context.contextFromHeaders(headers);
    expect(ctx).toMatchObject({
      requestId: 'req-42',
      principal: { kind: 'user', via: 'basic', name: 'ada', role: 'admin' },
    });
    const page = await data.listCollections(rt, ctx, { page: 1, limit: 5 });
    expect(page.data).toHaveLength(5);
  });

  it('reads outside any request with a system context (the sync, a CLI)', async () => {
    const ctx = context.systemContext('index-sync');
    expect(ctx.principal).toEqual({ kind: 'system', name: 'index-sync' });
    const one = await data.getCollection(rt, ctx, sandbox.demo.collections.integrated[0]!);
    expect(one.data.id).toBe(sandbox.demo.collections.integrated[0]);
  });
});
