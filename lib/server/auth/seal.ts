import 'server-only';
import { createHash } from 'node:crypto';
import { EncryptJWT, jwtDecrypt, type JWTPayload } from 'jose';

/**
 * Cookies the server writes and must get back unchanged and unread: the
 * session and the sign-in transaction. Each is a JWE (`dir`, A256GCM): encrypted
 * and authenticated with a 256-bit key derived from a SESSION_SECRET, so a
 * browser can neither read nor alter it, and any replica with the same secrets
 * accepts it (nothing is stored on the server). The first secret seals; every
 * secret opens, so a secret is rotated by putting the new one first and
 * dropping the old one once the longest lifetime has passed. `purpose` keeps a
 * transaction cookie from being replayed as a session and vice versa.
 */
export type Purpose = 'session' | 'sign-in';

const keys = new Map<string, Uint8Array>();
function keyOf(secret: string): Uint8Array {
  let key = keys.get(secret);
  if (!key) {
    key = new Uint8Array(createHash('sha256').update(`collections-console:cookie:${secret}`, 'utf8').digest());
    keys.set(secret, key);
  }
  return key;
}

export async function seal(
  payload: Record<string, unknown>,
  purpose: Purpose,
  secrets: readonly string[],
  ttlSeconds: number,
  now = Date.now(),
): Promise<string> {
  const at = Math.floor(now / 1000);
  return new EncryptJWT({ ...payload, pur: purpose })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt(at)
    .setExpirationTime(at + ttlSeconds)
    .encrypt(keyOf(secrets[0]!));
}

/** The payload, or null for anything not sealed by us, for another purpose, or expired. Never throws. */
export async function open(
  token: string | undefined,
  purpose: Purpose,
  secrets: readonly string[],
  now = Date.now(),
): Promise<JWTPayload | null> {
  if (!token || token.length > 8192) return null;
  for (const secret of secrets) {
    try {
      const { payload } = await jwtDecrypt(token, keyOf(secret), {
        currentDate: new Date(now),
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      return payload.pur === purpose ? payload : null;
    } catch {
      // Not this secret (or not ours at all): try the next.
    }
  }
  return null;
}
