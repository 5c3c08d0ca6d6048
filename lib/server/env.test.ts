import { describe, expect, it } from 'vitest';
import { parseConfig } from './env';

describe('server configuration', () => {
  it('defaults to the sandbox with the demo key', () => {
    const config = parseConfig({});
    expect(config.upstream).toEqual({
      sandbox: true,
      baseUrl: 'http://127.0.0.1:4010',
      key: 'sk_sandbox_demo',
      keyHeader: 'Authorization',
      timeoutMs: 10_000,
    });
    expect(config.amountMinorUnits).toBe(false);
    expect(config.access).toEqual({ users: [], open: false, admins: [], viewerContactDetails: 'full' });
    expect(config.oidc).toBeNull();
  });

  it('keeps the index in INDEX_PATH by default, and on PostgreSQL with DATABASE_URL', () => {
    expect(parseConfig({}).database).toEqual({ kind: 'sqlite', path: '.data/index.sqlite' });
    expect(parseConfig({ INDEX_PATH: '/var/lib/cc/index.sqlite' }).database).toEqual({
      kind: 'sqlite',
      path: '/var/lib/cc/index.sqlite',
    });
    const url = 'postgres://console:s3cret@db.internal:5432/console';
    expect(parseConfig({ DATABASE_URL: url }).database).toEqual({ kind: 'postgres', url, poolMax: 10, ssl: false });
    expect(
      parseConfig({
        DATABASE_URL: url.replace('postgres:', 'postgresql:'),
        DATABASE_POOL_MAX: '4',
        DATABASE_SSL: 'require',
      }).database,
    ).toMatchObject({ kind: 'postgres', poolMax: 4, ssl: true });
  });

  it.each([
    [{ DATABASE_URL: 'mysql://u:p@db/x' }, 'DATABASE_URL must be a postgres:// URL'],
    [{ DATABASE_URL: 'not a url with s3cret' }, 'DATABASE_URL must be a postgres:// URL'],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX'],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_SSL: 'verify' }, 'DATABASE_SSL'],
    [
      { DATABASE_URL: 'postgres://u:s3cret@db/x?sslmode=no-verify', DATABASE_SSL: 'require' },
      'DATABASE_SSL is require',
    ],
  ])('refuses a bad database setting, naming it and never echoing it (%o)', (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
    try {
      parseConfig(env);
    } catch (error) {
      expect(String(error)).not.toMatch(/s3cret|mysql|verify/);
    }
  });

  it('names the index’s account by its key unless INDEX_ACCOUNT labels it; prunes after 30 days by default', () => {
    expect(parseConfig({}).index).toMatchObject({ account: null, accountRetentionDays: 30 });
    expect(parseConfig({ INDEX_ACCOUNT: 'acme-ng', INDEX_ACCOUNT_RETENTION_DAYS: '7' }).index).toMatchObject({
      account: 'acme-ng',
      accountRetentionDays: 7,
    });
    expect(() => parseConfig({ INDEX_ACCOUNT: 'acme ng' })).toThrow('INDEX_ACCOUNT must be letters');
    expect(() => parseConfig({ INDEX_ACCOUNT_RETENTION_DAYS: '0' })).toThrow('INDEX_ACCOUNT_RETENTION_DAYS');
  });

  it('follows SANDBOX_PORT for the sandbox upstream', () => {
    expect(parseConfig({ SANDBOX_PORT: '4210' }).upstream.baseUrl).toBe('http://127.0.0.1:4210');
  });

  it('reads a real upstream, trimming trailing slashes and keeping a path prefix', () => {
    const config = parseConfig({
      API_BASE_URL: 'https://api.example.com/v2/',
      API_KEY: 'sk_live_x',
      API_KEY_HEADER: 'X-API-Key',
      API_TIMEOUT_MS: '2500',
    });
    expect(config.upstream).toEqual({
      sandbox: false,
      baseUrl: 'https://api.example.com/v2',
      key: 'sk_live_x',
      keyHeader: 'X-API-Key',
      timeoutMs: 2500,
    });
  });

  it('parses access users, with colons allowed in passwords', () => {
    const config = parseConfig({
      DASHBOARD_USERS: 'ada:s3cr:et,grace:pw',
      DASHBOARD_OPEN: 'false',
      AMOUNT_MINOR_UNITS: 'true',
    });
    expect(config.access.users).toEqual([
      { user: 'ada', password: 's3cr:et' },
      { user: 'grace', password: 'pw' },
    ]);
    expect(config.amountMinorUnits).toBe(true);
  });

  it('shows viewers contact details in full unless VIEWER_CONTACT_DETAILS masks them', () => {
    expect(parseConfig({}).access.viewerContactDetails).toBe('full');
    expect(parseConfig({ VIEWER_CONTACT_DETAILS: '' }).access.viewerContactDetails).toBe('full');
    expect(parseConfig({ VIEWER_CONTACT_DETAILS: 'masked' }).access.viewerContactDetails).toBe('masked');
  });

  it.each([
    [
      { API_BASE_URL: 'https://api.example.com' },
      'Invalid configuration: API_KEY is required when API_BASE_URL is set',
    ],
    [{ API_BASE_URL: 'ftp://api.example.com', API_KEY: 'k' }, /^Invalid configuration: API_BASE_URL /],
    [{ API_BASE_URL: 'https://u:p@api.example.com', API_KEY: 'k' }, /API_BASE_URL must be a plain http\(s\) URL/],
    [{ API_TIMEOUT_MS: 'soon' }, /^Invalid configuration: API_TIMEOUT_MS /],
    [{ PORT: '70000' }, /^Invalid configuration: PORT /],
    [{ KEEP_ALIVE_TIMEOUT: '65s' }, /^Invalid configuration: KEEP_ALIVE_TIMEOUT /],
    [{ KEEP_ALIVE_TIMEOUT: '500' }, /^Invalid configuration: KEEP_ALIVE_TIMEOUT /],
    [{ API_KEY_HEADER: 'X Api Key' }, 'Invalid configuration: API_KEY_HEADER must be an HTTP header name'],
    [{ DASHBOARD_USERS: 'nopassword' }, /^Invalid configuration: DASHBOARD_USERS must be user:password pairs/],
    [{ AMOUNT_MINOR_UNITS: 'yes' }, /^Invalid configuration: AMOUNT_MINOR_UNITS /],
    [{ VIEWER_CONTACT_DETAILS: 'hidden' }, /^Invalid configuration: VIEWER_CONTACT_DETAILS /],
  ])('names the first bad variable: %j', (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });

  it('never echoes a value in its message', () => {
    expect(() => parseConfig({ API_BASE_URL: 'not a url with sk_secret', API_KEY: 'sk_secret' })).toThrow(
      /^(?!.*sk_secret)/,
    );
  });
});
