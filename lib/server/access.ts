import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import { roleFor, isAllowed, type Identity } from './auth/identity';
import { open } from './auth/seal';
import type { ServerConfig } from './env';

/**
 * The access gate (contract sections 3 and 10): a signed-in session (OpenID
 * Connect), HTTP Basic against DASHBOARD_USERS, or open with DASHBOARD_OPEN=true
 * or on the sandbox when neither is set. Checked in proxy.ts and again by the
 * data layer, never in one place alone.
 */
export const SESSION_COOKIE = 'cc-session';
/** A session lasts a working day; then the provider is asked again (usually without a prompt). */
export const SESSION_TTL_S = 12 * 3600;
/** The sign-in transaction (state, nonce, PKCE verifier), read once by the callback. */
export const SIGN_IN_COOKIE = 'cc-auth';
export const SIGN_IN_TTL_S = 600;

export type AccessDecision = { ok: true; user?: string } | { ok: false };

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Whether two secrets are equal, in time that says nothing about where they differ (fixed-length digests). */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** Whether requests must present credentials at all. */
export function gateIsOpen(config: ServerConfig): boolean {
  if (config.access.users.length > 0 || config.oidc) return false;
  return config.access.open || config.upstream.sandbox || !config.production;
}

/** The user name a Basic header claims (never the password), for the audit log of a refused request. */
export function basicUserName(header: string | null): string | null {
  return parseBasic(header)?.user || null;
}

function parseBasic(header: string | null): { user: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Compares against every configured user with a constant-time comparison of
 * fixed-length digests, without stopping at the first match, so timing says
 * nothing about which part was wrong.
 */
export function checkAccess(config: ServerConfig, authorization: string | null): AccessDecision {
  if (gateIsOpen(config)) return { ok: true };
  const given = parseBasic(authorization);
  const user = digest(given?.user ?? '');
  const password = digest(given?.password ?? '');
  let matched: string | undefined;
  for (const candidate of config.access.users) {
    const userOk = timingSafeEqual(user, digest(candidate.user));
    const passwordOk = timingSafeEqual(password, digest(candidate.password));
    if (userOk && passwordOk && given) matched = candidate.user;
  }
  return matched ? { ok: true, user: matched } : { ok: false };
}

/** One cookie's value from a `Cookie` header. */
export function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export type Authentication = { ok: true; identity: Identity } | { ok: false };

/**
 * Who the request is from: a valid session (still on the allow-list: taking
 * someone off it locks them out at their next request), else valid Basic
 * credentials, else the open gate, else no one.
 */
export async function authenticate(
  config: ServerConfig,
  request: { authorization: string | null; cookie: string | null },
): Promise<Authentication> {
  const admins = config.access.admins;
  if (config.oidc) {
    const session = await open(cookieValue(request.cookie, SESSION_COOKIE), 'session', config.sessionSecrets);
    if (session && typeof session.email === 'string' && isAllowed(session.email, true, config.oidc)) {
      const name = session.email.toLowerCase();
      const displayName = typeof session.name === 'string' && session.name.trim() ? session.name.trim() : name;
      const groups = Array.isArray(session.groups)
        ? session.groups.filter((g): g is string => typeof g === 'string')
        : [];
      const role = roleFor('session', name, admins);
      return { ok: true, identity: { via: 'session', name, displayName, role, groups } };
    }
  }
  if (gateIsOpen(config))
    return {
      ok: true,
      identity: { via: 'open', name: 'open access', displayName: 'Open access', role: roleFor('open', '', admins) },
    };
  if (config.access.users.length) {
    const basic = checkAccess(config, request.authorization);
    if (basic.ok && basic.user)
      return {
        ok: true,
        identity: {
          via: 'basic',
          name: basic.user,
          displayName: basic.user,
          role: roleFor('basic', basic.user, admins),
        },
      };
  }
  return { ok: false };
}

/** Why the server must not start, or null: a real upstream in production needs a gate. */
export function startupRefusal(config: ServerConfig): string | null {
  if (!config.production || config.upstream.sandbox) return null;
  if (config.access.users.length > 0 || config.access.open || config.oidc) return null;
  return 'Refusing to start: API_BASE_URL points at a real upstream but no access gate is set. Set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (sign-in with your identity provider), DASHBOARD_USERS=user:password (HTTP Basic) or, behind an SSO proxy that already gates, DASHBOARD_OPEN=true.';
}

export const WWW_AUTHENTICATE = 'Basic realm="Collections Console", charset="UTF-8"';
