import { describe, expect, it } from 'vitest';
import { checkAccess, gateIsOpen, startupRefusal } from './access';
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
    expect(startupRefusal(parseConfig(real))).toMatch(/Set DASHBOARD_USERS=user:password .* DASHBOARD_OPEN=true/);
    expect(startupRefusal(parseConfig({ ...real, DASHBOARD_USERS: 'a:b' }))).toBeNull();
    expect(startupRefusal(parseConfig({ ...real, DASHBOARD_OPEN: 'true' }))).toBeNull();
    expect(startupRefusal(parseConfig({ ...real, NODE_ENV: 'development' }))).toBeNull();
    expect(startupRefusal(parseConfig({ NODE_ENV: 'production' }))).toBeNull();
  });
});
