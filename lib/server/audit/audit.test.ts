import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function load(env: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  return import('./audit');
}

describe('how searches are kept in the audit log', () => {
  it('as a keyed hash, the same for the same text whatever its case, spacing or a phone’s punctuation', async () => {
    const { searchTarget } = await load({ INDEX_SECRET: 'x'.repeat(40) });
    const email = searchTarget('Grace.Hopper@Example.com');
    expect(email).toMatch(/^q:[0-9a-f]{32}$/);
    expect(email).not.toContain('grace');
    expect(searchTarget('  grace.hopper@example.com ')).toBe(email);
    expect(searchTarget('+44 (20) 7946-0958')).toBe(searchTarget('+442079460958'));
    expect(searchTarget('INV-2026-00042')).not.toBe(email);
  });

  it('keyed: another secret gives another hash (a stolen log cannot be matched against a list of e-mails)', async () => {
    const a = (await load({ INDEX_SECRET: 'a'.repeat(40) })).searchTarget('grace@example.com');
    vi.resetModules();
    vi.unstubAllEnvs();
    const b = (await load({ INDEX_SECRET: 'b'.repeat(40) })).searchTarget('grace@example.com');
    expect(a).not.toBe(b);
  });

  it('names the kind of a search without its text', async () => {
    const { searchKind } = await load();
    expect(
      [
        'ada@example.com',
        '+44 20 7946 0958',
        '0958',
        'pay_abc',
        'INV-2026-00042',
        'Grace',
        '(+234) 803 123 4567',
        '0803.123.4567',
      ].map(searchKind),
    ).toEqual(['email', 'phone', 'phone', 'id', 'text', 'text', 'phone', 'phone']);
  });
});
