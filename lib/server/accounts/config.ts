import 'server-only';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The accounts one dashboard serves (contract section 3, `ACCOUNTS` / `ACCOUNTS_FILE`): each a key of the
 * upstream with a name people know it by, live or test, and who may see it. `API_KEY` alone is one account
 * (`default`), the sandbox with nothing set its two. Keys stay here, on the server: nothing but `id`, `name`
 * and `mode` is ever handed to a page (`publicAccount`).
 */
export type AccountMode = 'live' | 'test';
export type Account = {
  id: string;
  name: string;
  mode: AccountMode;
  key: string;
  baseUrl: string;
  keyHeader: string;
  /** E-mail addresses (lower-case) or OIDC group names; both empty: the global roles apply. */
  admins: readonly string[];
  viewers: readonly string[];
};
/** What a page may know of an account. */
export type PublicAccount = Pick<Account, 'id' | 'name' | 'mode'>;
export const publicAccount = ({ id, name, mode }: Account): PublicAccount => ({ id, name, mode });

export const ACCOUNT_ID = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
/** `account=all`: every account the user may see (search and the overview); no account may take the id. */
export const EVERY_ACCOUNT = 'all';
/** The one-account setup's id (`API_KEY` alone): in the audit log, never in a URL. */
export const DEFAULT_ACCOUNT_ID = 'default';
/** The sandbox's two accounts (sandbox/seed-data.ts), served when nothing names an account. */
export const SANDBOX_ACCOUNTS = [
  { id: 'demo', name: 'Demo Store', mode: 'live', key: 'sk_sandbox_demo' },
  { id: 'other', name: 'Other Business Ltd', mode: 'test', key: 'sk_sandbox_other' },
] as const;

const principals = z
  .array(z.string().trim().min(1, 'must not hold an empty name').max(200))
  .max(1000)
  .default([])
  .transform((names) => names.map((name) => (name.includes('@') ? name.toLowerCase() : name)));

const entry = z
  .object({
    id: z.string().regex(ACCOUNT_ID, 'must be a slug: a-z, 0-9 and -, 1-40 characters, not starting or ending with -'),
    name: z.string().trim().min(1, 'is required').max(80, 'must be at most 80 characters'),
    key: z.string().trim().min(1, 'must not be empty').optional(),
    keyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
      .optional(),
    mode: z.enum(['live', 'test'], { error: 'must be "live" or "test"' }),
    baseUrl: z.string().optional(),
    keyHeader: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name')
      .optional(),
    admins: principals,
    viewers: principals,
  })
  .strict();

export class AccountsError extends Error {}

type Defaults = {
  baseUrl: string;
  keyHeader: string;
  /** Checks an account's own base URL as API_BASE_URL is checked; returns the normalised URL or a reason. */
  checkUrl: (raw: string) => { ok: true; url: string } | { ok: false; message: string };
};

/** The raw list: ACCOUNTS' JSON, or ACCOUNTS_FILE's; null when neither is set. Never echoes the text. */
function rawList(env: Record<string, string | undefined>): { source: string; value: unknown } | null {
  const inline = env.ACCOUNTS?.trim();
  const file = env.ACCOUNTS_FILE?.trim();
  if (inline && file) throw new AccountsError('ACCOUNTS and ACCOUNTS_FILE are both set: keep one of them');
  if (!inline && !file) return null;
  let text = inline!;
  if (file) {
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new AccountsError(`ACCOUNTS_FILE cannot be read (${file})`);
    }
  }
  const source = file ? 'ACCOUNTS_FILE' : 'ACCOUNTS';
  try {
    return { source, value: JSON.parse(text) };
  } catch {
    throw new AccountsError(`${source} is not valid JSON`);
  }
}

/**
 * Parses ACCOUNTS / ACCOUNTS_FILE against the environment (for `keyEnv`); null when neither is set. The message
 * names the entry (its position and id) and the field, never a value.
 */
export function parseAccounts(env: Record<string, string | undefined>, defaults: Defaults): Account[] | null {
  const raw = rawList(env);
  if (!raw) return null;
  const { source, value } = raw;
  if (!Array.isArray(value) || value.length === 0)
    throw new AccountsError(`${source} must be a JSON list of at least one account`);
  if (value.length > 100) throw new AccountsError(`${source} holds more than 100 accounts`);
  const seen = new Set<string>();
  return value.map((item, position) => {
    const label = (id?: unknown) =>
      `${source} entry ${position + 1}${typeof id === 'string' && ACCOUNT_ID.test(id) ? ` ("${id}")` : ''}`;
    const result = entry.safeParse(item);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : String(issue.path[0] ?? 'entry');
      const message = issue.code === 'unrecognized_keys' ? 'is not a field of an account' : issue.message;
      throw new AccountsError(`${label((item as { id?: unknown } | null)?.id)} ${field} ${message}`);
    }
    const account = result.data;
    const at = label(account.id);
    if (account.id === EVERY_ACCOUNT || account.id === DEFAULT_ACCOUNT_ID)
      throw new AccountsError(`${at} id "${account.id}" is reserved (account=all searches every account)`);
    if (seen.has(account.id)) throw new AccountsError(`${at} id is used by an earlier entry`);
    seen.add(account.id);
    if (account.key && account.keyEnv) throw new AccountsError(`${at} key and keyEnv are both set: keep one`);
    const key = account.key ?? (account.keyEnv ? env[account.keyEnv]?.trim() : undefined);
    if (!account.key && !account.keyEnv) throw new AccountsError(`${at} key or keyEnv is required`);
    if (!key) throw new AccountsError(`${at} keyEnv names ${account.keyEnv}, which is not set`);
    let baseUrl = defaults.baseUrl;
    if (account.baseUrl !== undefined) {
      const checked = defaults.checkUrl(account.baseUrl);
      if (!checked.ok) throw new AccountsError(`${at} baseUrl ${checked.message}`);
      baseUrl = checked.url;
    }
    return {
      id: account.id,
      name: account.name,
      mode: account.mode,
      key,
      baseUrl,
      keyHeader: account.keyHeader ?? defaults.keyHeader,
      admins: account.admins,
      viewers: account.viewers,
    };
  });
}
