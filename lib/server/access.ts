import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServerConfig } from './env';

/**
 * The access gate (contract section 3). HTTP Basic against DASHBOARD_USERS,
 * open with DASHBOARD_OPEN=true or on the sandbox without users. Checked in
 * proxy.ts and again by the data layer, never in one place alone.
 */
export type AccessDecision = { ok: true; user?: string } | { ok: false };

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Whether requests must present credentials at all. */
export function gateIsOpen(config: ServerConfig): boolean {
  if (config.access.users.length > 0) return false;
  return config.access.open || config.upstream.sandbox || !config.production;
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

/** Why the server must not start, or null: a real upstream in production needs a gate. */
export function startupRefusal(config: ServerConfig): string | null {
  if (!config.production || config.upstream.sandbox) return null;
  if (config.access.users.length > 0 || config.access.open) return null;
  return 'Refusing to start: API_BASE_URL points at a real upstream but no access gate is set. Set DASHBOARD_USERS=user:password (HTTP Basic) or, behind an SSO proxy that already gates, DASHBOARD_OPEN=true.';
}

export const WWW_AUTHENTICATE = 'Basic realm="Collections Console", charset="UTF-8"';
