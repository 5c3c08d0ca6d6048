import 'server-only';
import pLimit from 'p-limit';
import type { Schedule } from '@/lib/api/subscriptions';
import type { Clock } from '../clock';
import { SendError } from './mailer';
import { nextDue } from './schedule';
import { claimDue, dueSubscriptions, recordDue, settle, type DeliveryRow, type MailDb } from './store';

/** What running one delivery came to: sent, skipped (with why), or a send that failed (retried a while). */
export type Outcome = { status: 'sent' | 'skipped'; detail?: string };

/** How often the leader looks for due reports; a report is sent within this of its time. */
export const TICK_MS = 20_000;
/** A claim's length: a replica killed mid-send leaves it to lapse, then another one sends. */
export const CLAIM_MS = 3 * 60_000;
/** A failed send is tried again with backoff (1, 2, 4, 8, then every 15 minutes) until an hour after its due time. */
export const RETRY_FOR_MS = 60 * 60_000;
const backoffMs = (attempts: number) => Math.min(2 ** (attempts - 1), 15) * 60_000;
const SENDS_AT_ONCE = 2;

export type SchedulerDeps = {
  db: MailDb;
  clock: Clock;
  /** This process, in claims (a replica's host and pid). */
  replica: string;
  /** Whether this replica holds the sync's lease (only it runs reports and alerts). */
  leads: () => boolean;
  /** Composes and sends one delivery (a report, a test, an alert); throws a SendError to retry. */
  run: (delivery: DeliveryRow) => Promise<Outcome>;
  /** Looks at the alert conditions and records what is to be mailed (run on the leader each tick). */
  watch?: () => Promise<void>;
  /** A delivery given up on after its hour of retries. */
  failed?: (delivery: DeliveryRow, error: SendError) => void;
  log: { warn(o: object, m: string): void };
};

/**
 * The reports' and alerts' clock (contract section 17). Each tick, on the leader: due subscriptions are
 * recorded as deliveries before anything is sent (store.ts `recordDue`), then pending deliveries are claimed
 * and sent, two at a time (mail never competes with the pages for more). A due time passed while no replica
 * ran is sent once when one does, then the schedule goes on from now: a week down is one report, not seven.
 * A clock moved back finds the next due time still ahead, and every due time already recorded stays
 * recorded: nothing is sent twice.
 */
export function createScheduler(deps: SchedulerDeps) {
  let cancel: (() => void) | null = null;
  let running: Promise<void> | null = null;
  const limit = pLimit(SENDS_AT_ONCE);

  async function recordDueReports(now: number) {
    const nowIso = new Date(now).toISOString();
    for (;;) {
      const due = await dueSubscriptions(deps.db, nowIso, 200);
      if (!due.length) return;
      for (const row of due) {
        const schedule = JSON.parse(row.schedule) as Schedule;
        const next = nextDue(schedule, Math.max(Date.parse(row.next_due!), now));
        await recordDue(deps.db, row, new Date(next).toISOString(), nowIso);
      }
      if (due.length < 200) return;
    }
  }

  async function deliver(row: DeliveryRow) {
    const now = () => new Date(deps.clock.now()).toISOString();
    try {
      const outcome = await deps.run(row);
      await settle(deps.db, row, deps.replica, {
        status: outcome.status,
        sent_at: outcome.status === 'sent' ? now() : null,
        detail: outcome.detail ?? row.detail,
        error: null,
        attempts: row.attempts + 1,
      });
    } catch (error) {
      const failure = error instanceof SendError ? error : new SendError(String(error), 'EINTERNAL', null);
      const attempts = row.attempts + 1;
      const late = deps.clock.now() - Date.parse(row.due) >= RETRY_FOR_MS;
      const message = failure.response ? `${failure.message} (${failure.response})` : failure.message;
      await settle(deps.db, row, deps.replica, {
        status: late ? 'failed' : 'pending',
        attempts,
        error: message.slice(0, 500),
        next_attempt_at: late ? null : new Date(deps.clock.now() + backoffMs(attempts)).toISOString(),
      });
      if (late) deps.failed?.(row, failure);
      else deps.log.warn({ subject: row.subject, kind: row.kind, attempts, code: failure.code }, 'mail send failed');
    }
  }

  async function tick() {
    if (!deps.leads()) return;
    const now = deps.clock.now();
    await recordDueReports(now);
    await deps.watch?.();
    const claimed = await claimDue(
      deps.db,
      deps.replica,
      new Date(now).toISOString(),
      new Date(now + CLAIM_MS).toISOString(),
      50,
    );
    await Promise.all(claimed.map((row) => limit(() => deliver(row))));
  }

  const loop = () => {
    running = tick()
      .catch((error: unknown) => deps.log.warn({ error: String(error) }, 'mail scheduler turn failed'))
      .finally(() => {
        running = null;
        if (cancel) cancel = deps.clock.after(TICK_MS, loop);
      });
  };

  return {
    /** One turn now (tests, and "Send a test now", which should not wait for the next tick). */
    tick,
    start() {
      if (cancel) return;
      cancel = deps.clock.after(1_000, loop);
    },
    async stop() {
      cancel?.();
      cancel = null;
      await running;
    },
  };
}
