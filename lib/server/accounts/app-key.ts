import 'server-only';
import { createHash } from 'node:crypto';

/**
 * The key an account's own data is kept under in the application's database (saved views, notes, tags):
 * what identifies the account, its API key, never its address (the same account reached at another host or
 * port keeps them). A one-way hash: the key itself is never stored.
 */
export function appAccountKey(upstreamKey: string): string {
  return createHash('sha256').update(`collections-console:views-account:${upstreamKey}`).digest('hex').slice(0, 32);
}
