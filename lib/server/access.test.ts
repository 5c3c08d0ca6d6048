import { describe, expect, it } from 'vitest';
import { authenticate, checkAccess, gateIsOpen, SESSION_COOKIE, SESSION_TTL_S, startupRefusal } from './access';
import { seal } from './auth/seal';
import { parseConfig } from './env';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const real = { API_BASE_URL: 'https://api.example.com', API_KEY: 'sk_live', NODE_ENV: 'production' };

describe('access gate', () => {
  it('is open on the sandbox without users', () => {
    expect(gateIsOpen(parseConfig({ NODE_ENV: 'production' }))).toBe(true);
    expect(checkAccess(parseConfig({}), null)).toEqual({ ok: true });
  });

  it('is open with DASHBOARD_OPEN=true', () => {
    expect(checkAccess(parseConfig({ ...real, DASHBOARD_OPEN: 'true' }), null)).toEqual({ ok: true });
  });

  it('asks for credentials when users are set, even on the sandbox', () => {
    const config = parseConfig({ DASHBOARD_USERS: 'ada:pw1,grace:p:w:2' });
    expect(checkAccess(config, null)).toEqual({ ok: false });
    expect(checkAccess(config, basic('ada', 'pw1'))).toEqual({ ok: true, user: 'ada' });
    expect(checkAccess(config, basic('grace', 'p:w:2'))).toEqual({ ok: true, user: 'grace' });
  });

  it.each([
    ['a wrong password', basic('ada', 'pw2')],
    ['a password of another user', basic('ada', 'p:w:2')],
    ['an unknown user', basic('eve', 'pw1')],
    ['an empty password', basic('ada', '')],
    ['a bearer token', 'Bearer pw1'],
    ['garbage', 'Basic !!!'],
    ['no colon', `Basic ${Buffer.from('adapw1').toString('base64')}`],
    ['a prefix of the password', basic('ada', 'pw')],
  ])('refuses %s', (_, header) => {
    expect(checkAccess(parseConfig({ DASHBOARD_USERS: 'ada:pw1,grace:p:w:2' }), header)).toEqual({ ok: false });
  });

  it('refuses to start with a real upstream in production and no gate', () => {
    expect(startupRefusal(parseConfig(real))).toMatch(
      /Set OIDC_ISSUER, .* DASHBOARD_USERS=user:password .* DASHBOARD_OPEN=true/,
    );
    expect(startupRefusal(parseConfig({ ...real, DASHBOARD_USERS: 'a:b' }))).toBeNull();
    expect(startupRefusal(parseConfig({ ...real, DASHBOARD_OPEN: 'true' }))).toBeNull();
    expect(startupRefusal(parseConfig({ ...real, NODE_ENV: 'development' }))).toBeNull();
    expect(startupRefusal(parseConfig({ NODE_ENV: 'production' }))).toBeNull();
  });
});

describe('sessions (OpenID Connect)', () => {
  const oidc = {
    OIDC_ISSUER: 'https://id.example.com',
    OIDC_CLIENT_ID: 'console',
    OIDC_CLIENT_SECRET: 'secret',
    OIDC_ALLOWED_DOMAINS: 'example.com',
    SESSION_SECRET: 's'.repeat(32),
    DASHBOARD_URL: 'https://console.example.com',
  };
  const cookieOf = async (payload: Record<string, unknown>, secret = 's'.repeat(32)) =>
    `other=1; ${SESSION_COOKIE}=${await seal(payload, 'session', [secret], SESSION_TTL_S)}`;

  it('closes the gate, even on the sandbox, and accepts a sealed session of an allowed user', async () => {
    const config = parseConfig(oidc);
    expect(gateIsOpen(config)).toBe(false);
    expect(await authenticate(config, { authorization: null, cookie: null })).toEqual({ ok: false });
    expect(
      await authenticate(config, {
        authorization: null,
        cookie: await cookieOf({ email: 'Grace@Example.com', name: 'Grace' }),
      }),
    ).toEqual({
      ok: true,
      identity: { via: 'session', name: 'grace@example.com', displayName: 'Grace', role: 'viewer', groups: [] },
    });
  });

  it('refuses a session sealed with another secret, for a user no longer allowed, or without an e-mail', async () => {
    const config = parseConfig(oidc);
    for (const cookie of [
      await cookieOf({ email: 'grace@example.com' }, 't'.repeat(32)),
      await cookieOf({ email: 'eve@elsewhere.test' }),
      await cookieOf({ name: 'Grace' }),
      `${SESSION_COOKIE}=garbage`,
    ])
      expect(await authenticate(config, { authorization: null, cookie })).toEqual({ ok: false });
  });

  it('still takes Basic credentials beside sessions, with DASHBOARD_ADMINS deciding roles', async () => {
    const config = parseConfig({ ...oidc, DASHBOARD_USERS: 'ada:pw1', DASHBOARD_ADMINS: 'grace@example.com' });
    expect(await authenticate(config, { authorization: basic('ada', 'pw1'), cookie: null })).toEqual({
      ok: true,
      identity: { via: 'basic', name: 'ada', displayName: 'ada', role: 'viewer' },
    });
    expect(
      await authenticate(config, { authorization: null, cookie: await cookieOf({ email: 'grace@example.com' }) }),
    ).toMatchObject({ ok: true, identity: { role: 'admin' } });
  });

  it('lets a server with sign-in start against a real upstream', () => {
    expect(startupRefusal(parseConfig({ ...real, ...oidc }))).toBeNull();
  });

  it.each([
    [{ ...oidc, OIDC_CLIENT_SECRET: '' }, /OIDC_CLIENT_SECRET is required/],
    [{ ...oidc, OIDC_ALLOWED_DOMAINS: '' }, /OIDC_ALLOWED_EMAILS or OIDC_ALLOWED_DOMAINS is required/],
    [{ ...oidc, SESSION_SECRET: 'short' }, /SESSION_SECRET must be at least 32 characters/],
    [{ ...oidc, SESSION_SECRET: '' }, /SESSION_SECRET is required with OIDC/],
    [{ ...oidc, DASHBOARD_URL: '' }, /DASHBOARD_URL is required with OIDC/],
    [{ ...oidc, OIDC_ISSUER: 'http://id.example.com' }, /OIDC_ISSUER must be https/],
  ])('names what is missing or wrong: %#', (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });
});
