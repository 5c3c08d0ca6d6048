import 'server-only';
import type { AUDIT_ACTION_NAMES } from '@/lib/api/audit';
import type { AppDb } from '../database/connect';
import { withoutNul } from '../database/text';

/**
 * The audit log's writer (contract section 10): who saw what, appended to the
 * application's database in batches so a request never waits on a write (it only
 * queues the entry and logs its pino line). A batch that cannot be written is
 * kept and tried again, loudly logged and counted; only past `cap` pending
 * entries are the oldest dropped, and that too is logged and counted. Pruned
 * of entries older than the retention once a day. States and timing in one
 * place, with the clock and the database given, so tests drive it.
 */
/** The actions (contract section 10), named once in lib/api/audit.ts for the route's filter too. */
export type AuditAction = (typeof AUDIT_ACTION_NAMES)[number];

export type AuditEntry = {
  at: string;
  user: string;
  role: string;
  action: AuditAction;
  target: string | null;
  detail: Record<string, unknown> | null;
  requestId: string;
  outcome: string;
  /** The account the request was in; null for a refusal before any account was chosen. */
  account: string | null;
};

type Log = {
  info: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
};

export type AuditDeps = {
  /** The database to write to, or null for now (the index not open yet: entries wait). */
  database: () => Promise<AppDb | null>;
  now: () => number;
  log: Log;
  /**
   * Each entry also as a log line: true for machine logs (JSON, where a shipper collects them), false on a
   * terminal, where a person reads one short line per request and the entries stay in the store.
   */
  echo: boolean;
  retentionDays: number;
  setTimer: (fn: () => void, ms: number) => { unref?: () => void };
  flushMs?: number;
  batch?: number;
  cap?: number;
};

export type AuditCounters = { written: number; failedWrites: number; dropped: number; pending: number };

const DAY_MS = 86_400_000;

export function createAuditLog(deps: AuditDeps) {
  const flushMs = deps.flushMs ?? 250;
  const batch = deps.batch ?? 500;
  const cap = deps.cap ?? 50_000;
  const queue: AuditEntry[] = [];
  const counters = { written: 0, failedWrites: 0, dropped: 0 };
  let scheduled = false;
  let flushing: Promise<void> | null = null;
  let lastPrune = 0;

  function schedule(ms = flushMs) {
    if (scheduled) return;
    scheduled = true;
    deps
      .setTimer(() => {
        scheduled = false;
        void flush();
      }, ms)
      .unref?.();
  }

  async function writeBatch(): Promise<boolean> {
    const db = await deps.database();
    if (!db) return false;
    const entries = queue.slice(0, batch);
    try {
      await db
        .insertInto('audit_entries')
        .values(
          // A NUL (an identity provider's claim, a target) as the table can keep it: one failed every batch
          // it was in, and stayed first in the queue.
          entries.map((e) => ({
            at: e.at,
            user: withoutNul(e.user),
            role: e.role,
            action: e.action,
            target: e.target && withoutNul(e.target),
            detail: e.detail ? JSON.stringify(e.detail) : null,
            request_id: withoutNul(e.requestId),
            outcome: e.outcome,
            account: e.account,
          })),
        )
        .execute();
    } catch (error) {
      counters.failedWrites += 1;
      deps.log.error(
        { err: error instanceof Error ? error.message : String(error), pending: queue.length },
        'audit: could not write entries; keeping them and trying again',
      );
      return false;
    }
    queue.splice(0, entries.length);
    counters.written += entries.length;
    return true;
  }

  async function prune(db: AppDb) {
    const before = new Date(deps.now() - deps.retentionDays * DAY_MS).toISOString();
    const result = await db.deleteFrom('audit_entries').where('at', '<', before).executeTakeFirst();
    const removed = Number(result.numDeletedRows ?? 0);
    if (removed) deps.log.info({ removed, before }, 'audit: pruned entries past the retention');
  }

  function flush(): Promise<void> {
    flushing ??= (async () => {
      while (queue.length) if (!(await writeBatch())) break;
      if (queue.length) schedule(Math.max(flushMs, 5_000)); // the database is away: try again in a while
      if (deps.now() - lastPrune >= DAY_MS) {
        const db = await deps.database();
        if (db) {
          lastPrune = deps.now();
          await prune(db).catch((error: unknown) =>
            deps.log.error({ err: error instanceof Error ? error.message : String(error) }, 'audit: prune failed'),
          );
        }
      }
    })().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  return {
    /** Queues one entry (and logs its line for machine logs); returns at once. */
    record(entry: AuditEntry) {
      if (deps.echo) deps.log.info({ audit: entry }, `audit: ${entry.action}`);
      queue.push(entry);
      if (queue.length > cap) {
        const over = queue.length - cap;
        queue.splice(0, over);
        counters.dropped += over;
        deps.log.error(
          { dropped: over, cap },
          'audit: too many entries waiting to be written; the oldest were dropped',
        );
      }
      schedule();
    },
    /** Writes what is waiting now (tests, a clean stop) and prunes when a day has passed. */
    flush,
    counters: (): AuditCounters => ({ ...counters, pending: queue.length }),
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
