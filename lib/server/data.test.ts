import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type TestSandbox } from '@/lib/testing/sandbox';

/**
 * The data layer checks the gate itself, so a request that slips past
 * proxy.ts still gets nothing. Proven here without proxy.ts in the way.
 */
const requestHeaders = new Headers();
vi.mock('next/headers', () => ({ headers: async () => requestHeaders }));

let sandbox: TestSandbox;
let data: typeof import('./data');

beforeAll(async () => {
  sandbox = await startSandbox();
  const port = new URL(sandbox.url).port;
  vi.stubEnv('SANDBOX_PORT', port);
  vi.stubEnv('DASHBOARD_USERS', 'ada:s3cret');
  vi.resetModules();
  data = await import('./data');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await sandbox.close();
});

describe('data layer access check', () => {
  it('refuses to read without credentials, before any upstream call', async () => {
    requestHeaders.delete('authorization');
    await expect(data.listCollections({ page: 1, limit: 10 })).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(data.getCollection(sandbox.demo.collections.integrated[0]!)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(data.getProvider(sandbox.demo.providers[0]!)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('refuses wrong credentials', async () => {
    requestHeaders.set('authorization', `Basic ${Buffer.from('ada:wrong').toString('base64')}`);
    await expect(data.listCollections({ page: 1, limit: 10 })).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('reads with valid credentials', async () => {
    requestHeaders.set('authorization', `Basic ${Buffer.from('ada:s3cret').toString('base64')}`);
    const page = await data.listCollections({ page: 1, limit: 5 });
    expect(page.data).toHaveLength(5);
  });
});
