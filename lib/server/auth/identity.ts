import 'server-only';
import { holdsControl } from '@/lib/api/control-characters';

/**
 * Who is reading and what they may do (contract section 10). `viewer` reads
 * everything, contact details included, but exports none; `admin` also exports
 * contact details and reads the audit log.
 */
export type Role = 'viewer' | 'admin';
export type Identity = {
  /** How they got in: a signed-in session, HTTP Basic, or the open gate. */
  via: 'session' | 'basic' | 'open';
  /** What the shell and the audit log call them: the e-mail, the Basic user name, or "open access". */
  name: string;
  displayName: string;
  role: Role;
  /** A signed-in user's OIDC groups (the `groups` claim), which an account's `admins` / `viewers` may name. */
  groups?: readonly string[];
};

export type AllowList = { allowedEmails: readonly string[]; allowedDomains: readonly string[] };

/**
 * Whether the provider's account may sign in: its e-mail, when the provider has
 * not said it is unverified, listed itself or under a listed domain (exactly
 * that domain: `example.com` does not let in `evil-example.com` or
 * `example.com.evil.test`). Compared lower-case; an address holding a control
 * character is refused.
 */
export function isAllowed(email: unknown, emailVerified: unknown, allow: AllowList): boolean {
  if (typeof email !== 'string' || emailVerified === false) return false;
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 1 || at === address.length - 1 || address.indexOf('@') !== at) return false;
  // No address holds a control character: a NUL under an allowed domain would be a user whose views, default
  // and audit entries PostgreSQL's text cannot hold.
  if (holdsControl(address)) return false;
  return allow.allowedEmails.includes(address) || allow.allowedDomains.includes(address.slice(at + 1));
}

/**
 * The role of an identity. DASHBOARD_ADMINS unset: every Basic user and open
 * mode are admins (as before sign-in existed), signed-in users are viewers.
 * Set: only the e-mails and Basic user names it lists are admins.
 */
export function roleFor(via: Identity['via'], name: string, admins: readonly string[]): Role {
  if (!admins.length) return via === 'session' ? 'viewer' : 'admin';
  return via !== 'open' && admins.includes(name.toLowerCase()) ? 'admin' : 'viewer';
}
