import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type TestSandbox } from '@/test/sandbox';
import { formatReport, runConformance } from './check';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ faults: true });
});
afterAll(async () => {
  await sandbox.close();
});

const run = (extra: Record<string, string> = {}) =>
  runConformance({
    baseUrl: sandbox.url,
    key: sandbox.demo.key,
    paceMs: 0,
    providerId: sandbox.demo.providers[0],
    ...extra,
  });

describe('upstream conformance', () => {
  it('passes the sandbox, within its request budget, and reports what the seed leaves open', async () => {
    const report = await run();
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.requests).toBeLessThanOrEqual(60);
    expect(report.checks.length).toBeGreaterThanOrEqual(12);
    expect(report.observations.map((o) => o.topic)).toEqual(
      expect.arrayContaining([
        'list order',
        'limit above 100',
        'past the last page',
        'key header',
        'rate-limit headers',
      ]),
    );
    const text = formatReport(report);
    expect(text).toMatch(/^Conforms: \d+ checks passed\.$/m);
    expect(text).not.toContain(sandbox.demo.key);
    expect(JSON.stringify(report)).not.toContain(sandbox.demo.key);
  });

  it.each([
    ['pay_fault_badshape', /fields, types and timestamps/],
    ['pay_fault_malformed', /a collection answer is JSON/],
    ['pay_fault_500', /answers 200/],
  ])('fails the right rule for a record that breaks the seed (%s)', async (id, rule) => {
    const report = await run({ collectionId: id });
    expect(report.ok).toBe(false);
    const failed = report.checks.filter((c) => !c.ok).map((c) => c.rule);
    expect(failed.some((r) => rule.test(r))).toBe(true);
    // Only the record's rules fail: the list and the errors still conform.
    expect(failed.every((r) => /collection|answer/i.test(r))).toBe(true);
  });

  it('fails everything that needs the key when the key is wrong, and says so', async () => {
    const report = await run({ key: 'sk_wrong_key' });
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.rule === 'GET /collections answers 200')).toMatchObject({
      ok: false,
      detail: 'HTTP 401',
    });
  });
});
