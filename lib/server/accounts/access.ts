import 'server-only';
import { createHash } from 'node:crypto';
import type { Identity, Role } from '../auth/identity';
import type { ServerConfig } from '../env';
import { ACCOUNT_ID, type Account } from './config';

/**
 * Who sees which account, and with which role (contract section 10). An account that lists no `admins` and no
 * `viewers` is seen by everyone the gate lets in, with their global role. One that lists either is seen by a
 * signed-in user named there (by e-mail or by one of their OIDC groups), admins first. Basic-auth users and
 * open access see every account with their global role: their names are the operator's own.
 */
export function roleIn(account: Account, identity: Identity): Role | null {
  if (!account.admins.length && !account.viewers.length) return identity.role;
  if (identity.via !== 'session') return identity.role;
  const names = [identity.name.toLowerCase(), ...(identity.groups ?? [])];
  if (names.some((name) => account.admins.includes(name))) return 'admin';
  if (names.some((name) => account.viewers.includes(name))) return 'viewer';
  return null;
}

export type Visible = { account: Account; role: Role };

export function visibleAccounts(config: ServerConfig, identity: Identity): Visible[] {
  return config.accounts.flatMap((account) => {
    const role = roleIn(account, identity);
    return role ? [{ account, role }] : [];
  });
}

/** The request header proxy.ts sets to the page's account, once it has checked it (it drops any a client sent). */
export const ACCOUNT_HEADER = 'x-cc-account';

/** The cookie remembering a user's last account; its value carries who it is for, so a shared browser asks again. */
export const ACCOUNT_COOKIE = 'cc-account';
const userTag = (identity: Identity) =>
  createHash('sha256').update(`${identity.via}:${identity.name}`, 'utf8').digest('hex').slice(0, 12);
export const rememberedValue = (identity: Identity, accountId: string) => `${accountId}.${userTag(identity)}`;
function remembered(identity: Identity, cookie: string | undefined): string | undefined {
  const dot = cookie?.lastIndexOf('.') ?? -1;
  if (!cookie || dot < 1 || cookie.slice(dot + 1) !== userTag(identity)) return undefined;
  return cookie.slice(0, dot);
}

export type AccountChoice =
  | { ok: true; account: Account; role: Role; asked: boolean }
  | { ok: false; code: 'bad_request' | 'forbidden_account'; message: string };

/** Whether a value may be an account id at all (the URL's `account=` is checked before any lookup). */
export const isAccountId = (value: string) => ACCOUNT_ID.test(value);

/**
 * The account a request is for: the one it names (`account=`), else the user's last one (the cookie), else the
 * first they may see. An id that is malformed or names no account is `bad_request`; one the user may not see,
 * or a user who may see none, `forbidden_account`. The messages never list accounts the user may not see.
 */
export function chooseAccount(
  config: ServerConfig,
  identity: Identity,
  requested: string | null | undefined,
  cookie?: string,
): AccountChoice {
  const visible = visibleAccounts(config, identity);
  if (requested !== null && requested !== undefined) {
    if (!isAccountId(requested))
      return {
        ok: false,
        code: 'bad_request',
        message: 'Invalid account: must be an account id (a-z, 0-9 and -, 1-40 characters)',
      };
    const account = config.accounts.find((candidate) => candidate.id === requested);
    const seen = visible.find((v) => v.account.id === requested);
    // An account that exists but is not yours answers as one that does not exist would not: it is refused by
    // name, which says no more than the id the user already typed.
    if (!account)
      return { ok: false, code: 'bad_request', message: `Invalid account: there is no account "${requested}"` };
    if (!seen) return { ok: false, code: 'forbidden_account', message: `You may not see the account "${requested}"` };
    return { ok: true, account: seen.account, role: seen.role, asked: true };
  }
  const last = remembered(identity, cookie);
  const chosen = visible.find((v) => v.account.id === last) ?? visible[0];
  if (!chosen)
    return { ok: false, code: 'forbidden_account', message: 'You may not see any account of this dashboard' };
  return { ok: true, account: chosen.account, role: chosen.role, asked: false };
}
