import { describe, expect, it } from 'vitest';
import type { Identity } from '../auth/identity';
import { parseConfig } from '../env';
import { chooseAccount, rememberedValue, roleIn, visibleAccounts } from './access';

const config = parseConfig({
  API_BASE_URL: 'https://api.example.com',
  ACME_TEST: 'sk_test',
  ACCOUNTS: JSON.stringify([
    { id: 'acme', name: 'Acme', key: 'sk_live', mode: 'live' },
    {
      id: 'acme-test',
      name: 'Acme (test)',
      keyEnv: 'ACME_TEST',
      mode: 'test',
      admins: ['lead@acme.com'],
      viewers: ['support'],
    },
    { id: 'beta', name: 'Beta', key: 'sk_beta', mode: 'live', admins: ['finance'] },
  ]),
});
const session = (name: string, groups: string[] = [], role: Identity['role'] = 'viewer'): Identity => ({
  via: 'session',
  name,
  displayName: name,
  role,
  groups,
});
const ids = (identity: Identity) => visibleAccounts(config, identity).map((v) => [v.account.id, v.role]);

describe('who sees which account', () => {
  it('gives an account without lists to everyone with their global role, one with lists to those it names', () => {
    expect(ids(session('grace@acme.com'))).toEqual([['acme', 'viewer']]);
    expect(ids(session('lead@acme.com'))).toEqual([
      ['acme', 'viewer'],
      ['acme-test', 'admin'],
    ]);
    // An OIDC group names people too; admins before viewers.
    expect(ids(session('sam@acme.com', ['support', 'finance']))).toEqual([
      ['acme', 'viewer'],
      ['acme-test', 'viewer'],
      ['beta', 'admin'],
    ]);
    expect(roleIn(config.accounts[1]!, session('LEAD@acme.com'))).toBe('admin');
  });

  it('lets Basic users and open access see every account with their global role', () => {
    const basic: Identity = { via: 'basic', name: 'ops', displayName: 'ops', role: 'admin' };
    expect(ids(basic)).toEqual([
      ['acme', 'admin'],
      ['acme-test', 'admin'],
      ['beta', 'admin'],
    ]);
  });
});

describe('the account a request is for', () => {
  const grace = session('grace@acme.com');
  const lead = session('lead@acme.com');

  it('takes the one asked for, else the user’s last (their own cookie only), else the first they may see', () => {
    expect(chooseAccount(config, lead, 'acme-test')).toMatchObject({ ok: true, role: 'admin', asked: true });
    expect(chooseAccount(config, lead, null, rememberedValue(lead, 'acme-test'))).toMatchObject({
      ok: true,
      asked: false,
      account: { id: 'acme-test' },
    });
    // Another user's cookie in a shared browser is no one's memory.
    expect(chooseAccount(config, lead, null, rememberedValue(grace, 'acme-test'))).toMatchObject({
      account: { id: 'acme' },
    });
    // A remembered account the user may no longer see: their first.
    expect(chooseAccount(config, grace, null, rememberedValue(grace, 'beta'))).toMatchObject({
      account: { id: 'acme' },
    });
  });

  it('refuses a malformed or unknown id (400) and one the user may not see (403), naming only what was typed', () => {
    expect(chooseAccount(config, grace, 'Acme Ltd')).toMatchObject({ ok: false, code: 'bad_request' });
    expect(chooseAccount(config, grace, 'gamma')).toEqual({
      ok: false,
      code: 'bad_request',
      message: 'Invalid account: there is no account "gamma"',
    });
    expect(chooseAccount(config, grace, 'beta')).toMatchObject({ ok: false, code: 'forbidden_account' });
  });

  it('refuses a user who may see no account', () => {
    const only = parseConfig({
      API_BASE_URL: 'https://api.example.com',
      ACCOUNTS: JSON.stringify([{ id: 'beta', name: 'Beta', key: 'k', mode: 'live', admins: ['finance'] }]),
    });
    expect(chooseAccount(only, session('grace@acme.com'), null)).toMatchObject({
      ok: false,
      code: 'forbidden_account',
    });
  });
});
