import 'server-only';
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The secret what the application keeps at rest is sealed and keyed under: INDEX_SECRET, or on the sandbox a
 * secret generated once beside INDEX_PATH (replicas on one machine share it). Null with a real upstream and
 * no INDEX_SECRET: then nothing that needs sealing (the index, notes) is kept.
 */
export function dataSecret(options: { secret?: string; sandbox: boolean; path: string }): string | null {
  if (options.secret) return options.secret;
  return options.sandbox ? sandboxSecret(resolve(options.path)) : null;
}

export function sandboxSecret(indexPath: string): string {
  // Generated once beside the index, readable by this user only; a real upstream needs INDEX_SECRET.
  const file = join(dirname(indexPath), 'index-secret');
  if (!existsSync(file)) {
    // Written whole under another name, then linked into place: two replicas starting together on one
    // machine both end up with the one secret that won, never with a half-written file or an EEXIST.
    mkdirSync(dirname(file), { recursive: true });
    const draft = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  return readFileSync(file, 'utf8').trim();
}
