import { readFileSync } from 'node:fs';
import { firstLoadJs } from '../scripts/first-load-js';
import { expect, test } from './fixtures';

/** Bytes are deterministic: CI guards them (wall-clock speed lives in `npm run bench`). */
const budgets = JSON.parse(readFileSync('bench/budgets.json', 'utf8')) as Record<string, number>;

test.describe('first-load JS budgets', () => {
  test('/collections stays within its budget', async ({ browser, baseURL }) => {
    const { gzip } = await firstLoadJs(browser, `${baseURL}/collections`);
    expect(gzip).toBeGreaterThan(10_000);
    expect(gzip, `first-load JS of /collections is ${gzip} B gzip`).toBeLessThanOrEqual(budgets['/collections']!);
  });

  test('/collections/{id} stays within its budget', async ({ browser, baseURL, sandbox }) => {
    const { gzip } = await firstLoadJs(browser, `${baseURL}/collections/${sandbox.demo.examples.multipleLineItems}`);
    expect(gzip).toBeGreaterThan(10_000);
    expect(gzip, `first-load JS of /collections/{id} is ${gzip} B gzip`).toBeLessThanOrEqual(
      budgets['/collections/{id}']!,
    );
  });

  for (const [name, path] of [
    ['/search', '/search?q=INV'],
    ['/overview', '/overview'],
    // A filtered view is the one list too (the same table, React Query and TanStack Table as the live list).
    ['/collections?<filters>', '/collections?status=pending&limit=100'],
  ] as const) {
    test(`${name} stays within its budget`, async ({ browser, baseURL }) => {
      const { gzip } = await firstLoadJs(browser, `${baseURL}${path}`);
      expect(gzip).toBeGreaterThan(10_000);
      expect(gzip, `first-load JS of ${name} is ${gzip} B gzip`).toBeLessThanOrEqual(budgets[name]!);
    });
  }
});
