import 'server-only';
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Text kept at rest: a note's (section 16), a kept e-mail's (section 17): AES-256-GCM under a key derived from the data secret (data-secret.ts),
 * bound to what it belongs to (its additional data: the account and the note's id), so a sealed text copied
 * onto another note or account does not open. Each purpose has its own key. Written `v1.<key check>.<base64 of iv, tag, ciphertext>`: a note sealed under
 * another secret is told apart and shown as unreadable, never as garbage.
 */
export type NoteSeal = { seal(text: string, aad: string): string; open(sealed: string, aad: string): string | null };

export function noteSeal(secret: string, purpose: 'note' | 'mail' = 'note'): NoteSeal {
  const info = `seal:${purpose}`;
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), 'collections-console', info, 32));
  const check = createHmac('sha256', key).update(`${purpose} key check`).digest('base64url').slice(0, 8);
  return {
    seal(text, aad) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return `v1.${check}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(sealed, aad) {
      const [version, sealedCheck, payload] = sealed.split('.');
      if (version !== 'v1' || sealedCheck !== check || !payload) return null;
      try {
        const raw = Buffer.from(payload, 'base64');
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAAD(Buffer.from(aad, 'utf8'));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

export const noteAad = (account: string, noteId: string) => `${account}/note/${noteId}`;
