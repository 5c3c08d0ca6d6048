import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCOUNTS } from '@/sandbox/seed-data';
import { parseConfig } from '../env';
import { SANDBOX_ACCOUNTS } from './config';

const acme = { id: 'acme', name: 'Acme', key: 'sk_live_acme_s3cret', mode: 'live' };
const acmeTest = { id: 'acme-test', name: 'Acme (test)', keyEnv: 'ACME_TEST_KEY', mode: 'test' };
const real = { API_BASE_URL: 'https://api.example.com' };

describe('accounts as configuration', () => {
  it('serves the sandbox’s two accounts when nothing names one, the first live and the second test', () => {
    const config = parseConfig({});
    expect(config.multiAccount).toBe(true);
    expect(config.accounts.map(({ id, name, mode }) => ({ id, name, mode }))).toEqual([
      { id: 'demo', name: 'Demo Store', mode: 'live' },
      { id: 'other', name: 'Other Business Ltd', mode: 'test' },
    ]);
    // The same keys and names as the sandbox's own accounts.
    expect(SANDBOX_ACCOUNTS.map((a) => [a.name, a.key])).toEqual(ACCOUNTS.map((a) => [a.name, a.key]));
  });

  it('keeps API_KEY alone a one-account setup, on the sandbox and on a real upstream', () => {
    for (const env of [{ API_KEY: 'sk_sandbox_other' }, { ...real, API_KEY: 'sk_live_x' }]) {
      const config = parseConfig(env);
      expect(config.multiAccount).toBe(false);
      expect(config.accounts).toHaveLength(1);
      expect(config.accounts[0]).toMatchObject({ id: 'default', key: env.API_KEY, mode: 'live' });
      expect(config.upstream.key).toBe(env.API_KEY);
    }
  });

  it('reads ACCOUNTS, taking keys from keyEnv and the base URL and header from the globals by default', () => {
    const config = parseConfig({
      ...real,
      API_KEY_HEADER: 'X-Api-Key',
      ACME_TEST_KEY: 'sk_test_acme',
      ACCOUNTS: JSON.stringify([
        { ...acme, admins: ['Owner@Acme.com', 'finance-team'] },
        { ...acmeTest, baseUrl: 'https://sandbox.example.com/', keyHeader: 'Authorization', viewers: ['support'] },
      ]),
    });
    expect(config.upstream).toMatchObject({ sandbox: false, baseUrl: 'https://api.example.com', key: acme.key });
    expect(config.accounts).toEqual([
      {
        id: 'acme',
        name: 'Acme',
        mode: 'live',
        key: acme.key,
        baseUrl: 'https://api.example.com',
        keyHeader: 'X-Api-Key',
        admins: ['owner@acme.com', 'finance-team'],
        viewers: [],
      },
      {
        id: 'acme-test',
        name: 'Acme (test)',
        mode: 'test',
        key: 'sk_test_acme',
        baseUrl: 'https://sandbox.example.com',
        keyHeader: 'Authorization',
        admins: [],
        viewers: ['support'],
      },
    ]);
  });

  it('reads ACCOUNTS_FILE, a file that need hold no secret', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'accounts-')), 'accounts.json');
    writeFileSync(file, JSON.stringify([acmeTest]));
    const config = parseConfig({ ...real, ACCOUNTS_FILE: file, ACME_TEST_KEY: 'sk_test_acme' });
    expect(config.accounts.map((a) => [a.id, a.key])).toEqual([['acme-test', 'sk_test_acme']]);
    expect(config.multiAccount).toBe(false);
  });

  it.each([
    [{ ACCOUNTS: '[{"id": "acme", ' }, 'ACCOUNTS is not valid JSON'],
    [{ ACCOUNTS: '{}' }, 'ACCOUNTS must be a JSON list of at least one account'],
    [{ ACCOUNTS: '[]' }, 'ACCOUNTS must be a JSON list of at least one account'],
    [{ ACCOUNTS: JSON.stringify([acme, acme]) }, 'ACCOUNTS entry 2 ("acme") id is used by an earlier entry'],
    [
      { ACCOUNTS: JSON.stringify([{ ...acme, mode: 'staging' }]) },
      'ACCOUNTS entry 1 ("acme") mode must be "live" or "test"',
    ],
    [
      { ACCOUNTS: JSON.stringify([{ ...acme, key: undefined }]) },
      'ACCOUNTS entry 1 ("acme") key or keyEnv is required',
    ],
    [
      { ACCOUNTS: JSON.stringify([acmeTest]) },
      'ACCOUNTS entry 1 ("acme-test") keyEnv names ACME_TEST_KEY, which is not set',
    ],
    [{ ACCOUNTS: JSON.stringify([{ ...acme, id: 'Acme Ltd' }]) }, 'ACCOUNTS entry 1 id must be a slug'],
    [{ ACCOUNTS: JSON.stringify([{ ...acme, id: 'a'.repeat(41) }]) }, 'ACCOUNTS entry 1 id must be a slug'],
    [{ ACCOUNTS: JSON.stringify([acme, { ...acme, id: 'b', name: '' }]) }, 'ACCOUNTS entry 2 ("b") name is required'],
    [{ ACCOUNTS: JSON.stringify([{ ...acme, baseUrl: 'ftp://x' }]) }, 'ACCOUNTS entry 1 ("acme") baseUrl'],
    [{ ACCOUNTS: JSON.stringify([{ ...acme, secret: 'x' }]) }, 'ACCOUNTS entry 1 ("acme") secret is not a field'],
    [{ ACCOUNTS: '[1]', ACCOUNTS_FILE: '/x' }, 'ACCOUNTS and ACCOUNTS_FILE are both set'],
    [{ ACCOUNTS_FILE: '/nonexistent/accounts.json' }, 'ACCOUNTS_FILE cannot be read'],
  ])('stops the start naming the entry and field, never a key (%o)', (env, message) => {
    expect(() => parseConfig({ ...real, ...env })).toThrow(message);
    try {
      parseConfig({ ...real, ...env });
    } catch (error) {
      expect(String(error)).not.toContain('s3cret');
    }
  });

  it('needs no API_KEY beside API_BASE_URL when ACCOUNTS names the keys', () => {
    expect(() => parseConfig(real)).toThrow('API_KEY is required');
    expect(parseConfig({ ...real, ACCOUNTS: JSON.stringify([acme]) }).upstream.key).toBe(acme.key);
  });
});
