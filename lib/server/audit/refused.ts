import 'server-only';
import type { AuditEntry } from './log';

/**
 * Refused requests seen by proxy.ts, on their way to the audit log. The proxy
 * is bundled apart from the routes and must stay small (no database in it): it
 * leaves entries here, on globalThis, and the log (audit.ts) takes them in
 * within a second. Bounded: past 10,000 waiting, the oldest go, counted.
 */
const KEY = Symbol.for('collections-console.audit-refused');
const CAP = 10_000;

type Inbox = { entries: AuditEntry[]; dropped: number };

export function refusedInbox(): Inbox {
  const global = globalThis as Record<symbol, Inbox | undefined>;
  return (global[KEY] ??= { entries: [], dropped: 0 });
}

/** An `access_denied` entry for a request the gate refused: credentials that did not pass, or a missing role. */
export function recordRefused(requestId: string, user: string | null, target: string, outcome: string) {
  const inbox = refusedInbox();
  inbox.entries.push({
    at: new Date().toISOString(),
    user: user ?? 'anonymous',
    role: 'none',
    action: 'access_denied',
    target,
    detail: null,
    requestId,
    outcome,
  });
  if (inbox.entries.length > CAP) inbox.dropped += inbox.entries.splice(0, inbox.entries.length - CAP).length;
}
