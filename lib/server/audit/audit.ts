import 'server-only';
import { createHmac } from 'node:crypto';
import type { RequestContext } from '../context';
import { getConfig } from '../env';
import type { AuditAction, AuditEntry, AuditLog } from './log';

/**
 * What the request side writes to the audit log (the runtime holds the log):
 * one entry after each read a user asked for (system work, the index's sync,
 * is not audited), and one for each request the gate refused.
 */
export type AuditOutcome = 'ok' | string;

/** One entry for what a user's request did; nothing for system contexts. */
export function audit(
  log: AuditLog,
  context: RequestContext,
  action: AuditAction,
  target: string | null,
  outcome: AuditOutcome = 'ok',
  detail: Record<string, unknown> | null = null,
) {
  if (context.principal.kind !== 'user') return;
  log.record({
    at: new Date().toISOString(),
    user: context.principal.name,
    role: context.principal.role,
    action,
    target,
    detail,
    requestId: context.requestId,
    outcome,
    account: context.account,
  });
}

/**
 * What a search is stored as: never its text, a keyed hash of it (the same
 * text, typed again by an admin, finds the same entries: "who searched for this
 * e-mail"). Normalised so case, spacing and a phone's punctuation do not matter.
 */
export function searchTarget(q: string): string {
  const config = getConfig();
  const secret = config.index.secret ?? config.sessionSecrets[0] ?? config.upstream.key;
  let text = q.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
  if (/^\+?[\d\s().-]{6,}$/.test(text)) text = text.replace(/\D/g, '');
  return `q:${createHmac('sha256', `collections-console:audit-search:${secret}`).update(text, 'utf8').digest('hex').slice(0, 32)}`;
}

/** The error code an audited read ended with, for the entry's outcome. */
export function outcomeOf(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : 'error';
}

/** What kind of text a search was, for its entry (the text itself is never stored). */
export function searchKind(q: string): 'email' | 'phone' | 'id' | 'text' {
  const text = q.trim();
  if (text.includes('@')) return 'email';
  if (/^(pay|prv)_/i.test(text)) return 'id';
  // As people write numbers: "(+234) 803…", "+234 (0) 803…", "0803.123.4567".
  if (/^[+(]*[\d\s().\-/+]{4,}$/.test(text) && /\d{4}/.test(text.replace(/\D/g, ''))) return 'phone';
  return 'text';
}

/**
 * Runs a read a user asked for and writes its one entry, with the outcome (`ok` or the error code) and,
 * when it succeeded, what `detail` makes of the result.
 */
export async function audited<T>(
  log: AuditLog,
  context: RequestContext,
  action: AuditAction,
  target: string | null,
  read: () => Promise<T>,
  detail: (result: T | null) => Record<string, unknown> | null = () => null,
): Promise<T> {
  try {
    const result = await read();
    audit(log, context, action, target, 'ok', detail(result));
    return result;
  } catch (error) {
    audit(log, context, action, target, outcomeOf(error), detail(null));
    throw error;
  }
}

/** An `access_denied` entry for a request the gate refused: credentials that did not pass, or a missing role. */
export function refusedEntry(
  requestId: string,
  user: string | null,
  target: string,
  outcome: string,
  account: string | null = null,
): AuditEntry {
  return {
    at: new Date().toISOString(),
    user: user ?? 'anonymous',
    role: 'none',
    action: 'access_denied',
    target,
    detail: null,
    requestId,
    outcome,
    account,
  };
}
