import 'server-only';
import { z } from 'zod';
import { MAIL_ENV, mailConfig } from './mail/config';
import { AccountsError, DEFAULT_ACCOUNT_ID, parseAccounts, SANDBOX_ACCOUNTS, type Account } from './accounts/config';

/**
 * Where the application's database is: a SQLite file (one instance, the embedded default) or one PostgreSQL
 * database shared by every replica (`DATABASE_URL`). lib/server/database connects to it.
 */
export type DatabaseTarget =
  { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; poolMax: number; ssl: boolean };

/**
 * The server's configuration (contract section 3), parsed once with zod. Only
 * the data layer and the access gate read it; nothing here is ever sent to a
 * browser. With API_BASE_URL unset the upstream is the embedded sandbox.
 */
export const SANDBOX_KEY = 'sk_sandbox_demo';

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');
const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

const baseUrl = z.url({ protocol: /^https?$/ }).transform((raw, ctx) => {
  const url = new URL(raw);
  if (url.username || url.password || url.search || url.hash) {
    ctx.addIssue({ code: 'custom', message: 'must be a plain http(s) URL without credentials, query or fragment' });
    return z.NEVER;
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
});

const users = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (!raw?.trim()) return [];
    return raw.split(',').map((pair) => {
      const at = pair.indexOf(':');
      const user = pair.slice(0, at).trim();
      const password = pair.slice(at + 1);
      if (at < 1 || !user || !password)
        ctx.addIssue({ code: 'custom', message: 'must be user:password pairs separated by commas' });
      return { user, password };
    });
  });

/** A comma-separated list, trimmed, empty items dropped; `lower` for e-mails and domains. */
const list = (lower = false) =>
  z
    .string()
    .optional()
    .transform((raw) =>
      (raw ?? '')
        .split(',')
        .map((item) => (lower ? item.trim().toLowerCase() : item.trim()))
        .filter(Boolean),
    );
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => v || undefined);
/** https, or http on a loopback host (a provider or a dashboard on this machine, as in tests). */
const secureUrl = baseUrl.refine((url) => {
  const { protocol, hostname } = new URL(url);
  return protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
}, 'must be https (http only on localhost or 127.0.0.1)');

const schema = z
  .object({
    API_BASE_URL: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .pipe(baseUrl.optional()),
    API_KEY: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined),
    API_KEY_HEADER: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name')
      .default('Authorization'),
    // Read in full by parseAccounts (lib/server/accounts/config.ts), which needs the whole environment for keyEnv.
    ACCOUNTS: optionalText,
    ACCOUNTS_FILE: optionalText,
    API_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    AMOUNT_MINOR_UNITS: flag,
    PORT: port(3000),
    // Read by Next's server itself (`npm start` passes it as `--keepAliveTimeout`, the image's server.js reads the
    // variable): checked here so a typo stops the start, named, instead of Next falling back to Node's 5 s.
    KEEP_ALIVE_TIMEOUT: optionalText.pipe(
      z.coerce.number<string | undefined>().int().min(1_000).max(3_600_000).optional(),
    ),
    SANDBOX_PORT: port(4010),
    DASHBOARD_USERS: users,
    DASHBOARD_OPEN: flag,
    INDEX: z.enum(['on', 'off', '']).optional(),
    INDEX_SECRET: z
      .string()
      .optional()
      .transform((v) => v || undefined)
      .pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    INDEX_PATH: z.string().trim().min(1).default('.data/index.sqlite'),
    DATABASE_URL: optionalText.pipe(
      z
        .string()
        .refine((v) => /^postgres(ql)?:$/.test(URL.parse(v)?.protocol ?? ''), 'must be a postgres:// URL')
        .optional(),
    ),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    DATABASE_SSL: z.enum(['require', 'off', '']).default(''),
    INDEX_SYNC_RPS: z.coerce.number().positive().max(1000).optional(),
    INDEX_POLL_S: z.coerce.number().int().min(1).max(3600).default(15),
    INDEX_ACCOUNT: optionalText.pipe(
      z
        .string()
        .max(100, 'must be at most 100 characters')
        .regex(/^[\w.:@-]+$/, 'must be letters, digits and . _ : @ - only')
        .optional(),
    ),
    INDEX_ACCOUNT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(30),
    HISTORY_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
    // Read by the logger itself (logger.ts, at import); checked here so a typo stops the start, named.
    LOG_LEVEL: optionalText.pipe(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional()),
    LOG_FORMAT: optionalText.pipe(z.enum(['json', 'pretty']).optional()),
    NODE_ENV: z.string().optional(),
    DASHBOARD_URL: optionalText.pipe(secureUrl.optional()),
    OIDC_ISSUER: optionalText.pipe(secureUrl.optional()),
    OIDC_CLIENT_ID: optionalText,
    OIDC_CLIENT_SECRET: optionalText,
    OIDC_ALLOWED_EMAILS: list(true),
    OIDC_ALLOWED_DOMAINS: list(true),
    SESSION_SECRET: list().pipe(z.array(z.string().min(32, 'must be at least 32 characters each'))),
    DASHBOARD_ADMINS: list(true),
    VIEWER_CONTACT_DETAILS: optionalText.pipe(z.enum(['full', 'masked']).default('full')),
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
    METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    ...MAIL_ENV,
  })
  .superRefine((env, ctx) => {
    // pg lets the URL's sslmode override the TLS settings: `require` must not be quietly undone by it.
    if (env.DATABASE_SSL === 'require' && /[?&]sslmode=(disable|allow|prefer|no-verify)\b/.test(env.DATABASE_URL ?? ''))
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_SSL'],
        message: "is require, but DATABASE_URL's sslmode turns certificate checks or TLS off: remove one of them",
      });
    if (env.API_BASE_URL && !env.API_KEY && !env.ACCOUNTS && !env.ACCOUNTS_FILE)
      ctx.addIssue({ code: 'custom', path: ['API_KEY'], message: 'is required when API_BASE_URL is set' });
    const oidc = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      const missing = (['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const).find((k) => !env[k])!;
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'is required with the other OIDC_ settings (all three, or none)',
      });
    }
    if (!env.OIDC_ISSUER) return;
    if (!env.OIDC_ALLOWED_EMAILS.length && !env.OIDC_ALLOWED_DOMAINS.length)
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_ALLOWED_EMAILS'],
        message: 'or OIDC_ALLOWED_DOMAINS is required with OIDC (who may sign in)',
      });
    if (!env.SESSION_SECRET.length)
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message: 'is required with OIDC (at least 32 characters)',
      });
    if (!env.DASHBOARD_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['DASHBOARD_URL'],
        message: 'is required with OIDC (the redirect URI is built from it)',
      });
  });

export type ServerConfig = ReturnType<typeof toConfig>;

function toConfig(env: z.output<typeof schema>, listed: Account[] | null) {
  const sandboxUrl = `http://127.0.0.1:${env.SANDBOX_PORT}`;
  const baseUrl = env.API_BASE_URL ?? sandboxUrl;
  const sandbox = !env.API_BASE_URL && (listed ?? []).every((account) => account.baseUrl === sandboxUrl);
  const one = { baseUrl, keyHeader: env.API_KEY_HEADER, admins: [], viewers: [] };
  // Nothing named: the sandbox's two accounts; API_KEY alone: one account, today's setup exactly.
  const accounts: Account[] =
    listed ??
    (sandbox && !env.API_KEY
      ? SANDBOX_ACCOUNTS.map((account) => ({ ...account, ...one }))
      : [{ id: DEFAULT_ACCOUNT_ID, name: 'This account', mode: 'live', key: env.API_KEY ?? SANDBOX_KEY, ...one }]);
  const first = accounts[0]!;
  return {
    /** Every account served, the first the default; more than one puts `account=` in every URL. */
    accounts,
    multiAccount: accounts.length > 1,
    /** The first account's upstream (one-account code paths and start-up checks). */
    upstream: {
      sandbox,
      baseUrl: first.baseUrl,
      key: first.key,
      keyHeader: first.keyHeader,
      timeoutMs: env.API_TIMEOUT_MS,
    },
    amountMinorUnits: env.AMOUNT_MINOR_UNITS,
    access: {
      users: env.DASHBOARD_USERS,
      open: env.DASHBOARD_OPEN,
      /** Admin e-mails and Basic user names (lower-case); empty: every Basic user and open mode are admins. */
      admins: env.DASHBOARD_ADMINS,
      /** How viewers see a contact's e-mail and phone on every page and API (admins always in full). */
      viewerContactDetails: env.VIEWER_CONTACT_DETAILS,
    },
    oidc: env.OIDC_ISSUER
      ? {
          issuer: env.OIDC_ISSUER,
          clientId: env.OIDC_CLIENT_ID!,
          clientSecret: env.OIDC_CLIENT_SECRET!,
          allowedEmails: env.OIDC_ALLOWED_EMAILS,
          allowedDomains: env.OIDC_ALLOWED_DOMAINS,
          redirectUri: `${env.DASHBOARD_URL}/auth/callback`,
          /** The OIDC groups an account's admins / viewers name: only these are kept in a session. */
          namedGroups: [
            ...new Set(accounts.flatMap((a) => [...a.admins, ...a.viewers]).filter((n) => !n.includes('@'))),
          ],
        }
      : null,
    /** The public base URL (sign-in's redirect, cookies' Secure flag), when set. */
    dashboardUrl: env.DASHBOARD_URL ?? null,
    /** First signs and encrypts, all decrypt: rotate by putting the new secret first. */
    sessionSecrets: env.SESSION_SECRET,
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    /** The bearer token of `/api/metrics`; unset: no metrics are recorded and the route is a 404. */
    metricsToken: env.METRICS_TOKEN ?? null,
    /** Where the index, sync state, audit log and drift report live: INDEX_PATH's file, or PostgreSQL. */
    database: (env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, poolMax: env.DATABASE_POOL_MAX, ssl: env.DATABASE_SSL === 'require' }
      : { kind: 'sqlite', path: env.INDEX_PATH }) as DatabaseTarget,
    index: {
      enabled: env.INDEX !== 'off',
      // With a real upstream there is no default secret: the index stays off until one is set.
      secret: env.INDEX_SECRET,
      path: env.INDEX_PATH,
      // The sandbox is local and fast; a real upstream is paced gently by default.
      syncRps: env.INDEX_SYNC_RPS ?? (sandbox ? 50 : 5),
      pollMs: env.INDEX_POLL_S * 1000,
      /**
       * What names the account's rows: the operator's label, else its key (never its address, so the same
       * account reached at another host or port keeps its index).
       */
      account: env.INDEX_ACCOUNT ?? null,
      /** An account no replica has opened for this many days is pruned by the syncing one. */
      accountRetentionDays: env.INDEX_ACCOUNT_RETENTION_DAYS,
      /** A collection's history is kept this long (contract section 14), pruned by the syncing replica. */
      historyRetentionDays: env.HISTORY_RETENTION_DAYS,
    },
    /** E-mailed reports and alerts (contract section 17): how mail leaves, from whom, the alert rules. */
    mail: mailConfig(env, sandbox, env.DASHBOARD_URL ?? null),
    production: env.NODE_ENV === 'production',
  };
}

export class ConfigError extends Error {}

/** Parses a given environment; the message names the first bad variable. Never echoes values. */
export function parseConfig(env: Record<string, string | undefined>): ServerConfig {
  const result = schema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0] ?? 'environment')} ${issue.message}`);
  }
  const data = result.data;
  try {
    const accounts = parseAccounts(env, {
      baseUrl: data.API_BASE_URL ?? `http://127.0.0.1:${data.SANDBOX_PORT}`,
      keyHeader: data.API_KEY_HEADER,
      checkUrl: (raw) => {
        const checked = baseUrl.safeParse(raw.trim());
        return checked.success
          ? { ok: true, url: checked.data }
          : { ok: false, message: checked.error.issues[0]?.message ?? 'must be an http(s) URL' };
      },
    });
    return toConfig(data, accounts);
  } catch (error) {
    if (error instanceof AccountsError) throw new ConfigError(`Invalid configuration: ${error.message}`);
    throw error;
  }
}

let cached: ServerConfig | undefined;

export function getConfig(): ServerConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
