import 'server-only';
import { createHmac } from 'node:crypto';
import type { RequestContext } from '../context';
import { getConfig } from '../env';
import { logger } from '../logger';
import { indexService } from '../search-index/service';
import { openDatabaseOnly, type IndexDb } from '../search-index/store';
import { createAuditLog, type AuditAction, type AuditLog } from './log';
import { refusedInbox } from './refused';
import { setDriftDatabase } from '../observability/drift';

/**
 * The process's audit log, and the one call the data layer makes: `audit()`
 * after each read a user asked for (system work, the index's sync, is not
 * audited). Writes go to the open index's connection; with the index turned off
 * the log opens the same file for itself (the index then never opens, so there
 * is never a second writer in the process).
 */
const KEY = Symbol.for('collections-console.audit-log');

const OWN = Symbol.for('collections-console.audit-own-db');

/** The database the log lives in: the open index's, or its own when the index is turned off; null meanwhile. */
export async function auditDatabase(): Promise<IndexDb | null> {
  const { db, off, target } = await indexService().auditDb();
  if (db || !off) return db;
  const global = globalThis as Record<symbol, Promise<IndexDb> | undefined>;
  const opening = (global[OWN] ??= openDatabaseOnly(target));
  // Not there yet (PostgreSQL not answering): the log keeps its entries and asks again.
  return opening.catch(() => {
    global[OWN] = undefined;
    return null;
  });
}

export function auditLog(): AuditLog {
  const global = globalThis as Record<symbol, AuditLog | undefined>;
  if (!global[KEY]) {
    global[KEY] = createAuditLog({
      database: auditDatabase,
      now: Date.now,
      log: logger,
      retentionDays: getConfig().auditRetentionDays,
      setTimer: (fn, ms) => setTimeout(fn, ms),
    });
    setDriftDatabase(auditDatabase);
    // What proxy.ts refused (refused.ts) joins the log within a second.
    const log = global[KEY];
    setInterval(() => {
      const inbox = refusedInbox();
      for (const entry of inbox.entries.splice(0)) log.record(entry);
      if (inbox.dropped) {
        logger.error({ dropped: inbox.dropped }, 'audit: refused requests came faster than they could be logged');
        inbox.dropped = 0;
      }
    }, 1000).unref();
  }
  return global[KEY];
}

export type AuditOutcome = 'ok' | string;

/** One entry for what a user's request did; nothing for system contexts. */
export function audit(
  context: RequestContext,
  action: AuditAction,
  target: string | null,
  outcome: AuditOutcome = 'ok',
  detail: Record<string, unknown> | null = null,
) {
  if (context.principal.kind !== 'user') return;
  auditLog().record({
    at: new Date().toISOString(),
    user: context.principal.name,
    role: context.principal.role,
    action,
    target,
    detail,
    requestId: context.requestId,
    outcome,
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
  if (/^\+?[\d\s().-]{4,}$/.test(text)) return 'phone';
  return 'text';
}

/**
 * Runs a read a user asked for and writes its one entry, with the outcome (`ok` or the error code) and,
 * when it succeeded, what `detail` makes of the result.
 */
export async function audited<T>(
  context: RequestContext,
  action: AuditAction,
  target: string | null,
  read: () => Promise<T>,
  detail: (result: T | null) => Record<string, unknown> | null = () => null,
): Promise<T> {
  try {
    const result = await read();
    audit(context, action, target, 'ok', detail(result));
    return result;
  } catch (error) {
    audit(context, action, target, outcomeOf(error), detail(null));
    throw error;
  }
}
