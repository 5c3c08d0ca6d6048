import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Delivery, Schedule, Subscription } from '@/lib/api/subscriptions';
import type { AppDb } from '../database/connect';
import type { AppDatabase } from '../database/schema';

export type SubscriptionRow = AppDatabase['subscriptions'];
export type DeliveryRow = AppDatabase['deliveries'];
export type DeliveryKey = Pick<DeliveryRow, 'subject' | 'due' | 'kind'>;

/** Where reports are kept: the application's database (its writer; its reads are the writer's too, so a
 * subscription saved a moment ago is the one the next step reads). */
export type MailDb = { database: () => Promise<AppDb> };

export const newSubscriptionId = () => `sub_${randomBytes(12).toString('base64url')}`;

export function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    viewId: row.view_id,
    viewName: row.view_name,
    owner: row.owner,
    schedule: JSON.parse(row.schedule) as Schedule,
    when: row.send_when,
    above: row.above,
    recipients: JSON.parse(row.recipients) as string[],
    attachCsv: row.attach_csv === 1,
    state: row.state === 'active' ? 'active' : 'paused',
    pausedReason: row.paused_reason,
    nextDue: row.state === 'active' ? row.next_due : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toDelivery(row: DeliveryRow): Delivery {
  return {
    kind: row.kind,
    due: row.due,
    status: row.status,
    sentAt: row.sent_at,
    attempts: row.attempts,
    ...(row.error ? { error: row.error } : {}),
    ...(row.detail ? { detail: row.detail } : {}),
  };
}

/** An account's subscriptions: one owner's, or (`owner` null) everyone's; ended ones are gone from view. */
export async function subscriptionsOf(db: MailDb, account: string, owner: string | null) {
  let query = (await db.database())
    .selectFrom('subscriptions')
    .selectAll()
    .where('account', '=', account)
    .where('state', '!=', 'ended');
  if (owner !== null) query = query.where('owner', '=', owner);
  return query.orderBy('created_at').orderBy('id').execute();
}

export async function subscriptionById(db: MailDb, id: string): Promise<SubscriptionRow | null> {
  const row = await (
    await db.database()
  )
    .selectFrom('subscriptions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

export async function insertSubscription(db: MailDb, row: SubscriptionRow): Promise<void> {
  await (await db.database()).insertInto('subscriptions').values(row).execute();
}

export async function changeSubscription(db: MailDb, id: string, change: Partial<SubscriptionRow>) {
  const result = await (
    await db.database()
  )
    .updateTable('subscriptions')
    .set(change)
    .where('id', '=', id)
    .where('state', '!=', 'ended')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function removeSubscription(db: MailDb, id: string): Promise<boolean> {
  const writer = await db.database();
  return writer.transaction().execute(async (trx) => {
    await trx.deleteFrom('deliveries').where('subject', '=', id).execute();
    const result = await trx.deleteFrom('subscriptions').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/** A subscription's deliveries, newest first. */
export async function deliveriesOf(db: MailDb, subject: string, limit = 50) {
  return (await db.database())
    .selectFrom('deliveries')
    .selectAll()
    .where('subject', '=', subject)
    .orderBy('due', 'desc')
    .orderBy('kind')
    .limit(limit)
    .execute();
}

/** Active subscriptions whose next report is due by `nowIso`, oldest due first. */
export async function dueSubscriptions(db: MailDb, nowIso: string, limit: number) {
  return (await db.database())
    .selectFrom('subscriptions')
    .selectAll()
    .where('state', '=', 'active')
    .where('next_due', '<=', nowIso)
    .orderBy('next_due')
    .limit(limit)
    .execute();
}

/**
 * Records a due report before anything is sent, and moves the subscription on to its next due time, in one
 * transaction: the delivery's key (subscription, due time) exists once whatever replica or restart gets
 * here, and the move is a compare-and-set on the due time read, so two replicas advancing one subscription
 * record one delivery between them.
 */
export async function recordDue(db: MailDb, row: SubscriptionRow, nextIso: string, nowIso: string): Promise<boolean> {
  const due = row.next_due!;
  return (await db.database()).transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('subscriptions')
      .set({ next_due: nextIso })
      .where('id', '=', row.id)
      .where('next_due', '=', due)
      .where('state', '=', 'active')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return false;
    await insertPending(trx, { subject: row.id, due, kind: 'report' }, nowIso);
    return true;
  });
}

/** A delivery to make (a test, an alert), once per key: false when it was recorded already. */
export async function recordOnce(db: MailDb, key: DeliveryKey, nowIso: string, detail: string | null = null) {
  return insertPending(await db.database(), key, nowIso, detail);
}

async function insertPending(db: AppDb, key: DeliveryKey, nowIso: string, detail: string | null = null) {
  const result = await db
    .insertInto('deliveries')
    .values({
      ...key,
      status: 'pending',
      attempts: 0,
      next_attempt_at: nowIso,
      claimed_by: null,
      claimed_until: null,
      sent_at: null,
      error: null,
      detail,
    })
    .onConflict((c) => c.columns(['subject', 'due', 'kind']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/**
 * Claims pending deliveries whose attempt is due and whose last claim (a replica's that died mid-send) has
 * lapsed: each by a compare-and-set of its claim, so two replicas never hold one delivery.
 */
export async function claimDue(db: MailDb, replica: string, nowIso: string, untilIso: string, limit: number) {
  const writer = await db.database();
  const candidates = await writer
    .selectFrom('deliveries')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', nowIso)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowIso)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  const claimed: DeliveryRow[] = [];
  for (const row of candidates) {
    const result = await writer
      .updateTable('deliveries')
      .set({ claimed_by: replica, claimed_until: untilIso })
      .where('subject', '=', row.subject)
      .where('due', '=', row.due)
      .where('kind', '=', row.kind)
      .where('status', '=', 'pending')
      .where((eb) =>
        row.claimed_until === null ? eb('claimed_until', 'is', null) : eb('claimed_until', '=', row.claimed_until),
      )
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) claimed.push({ ...row, claimed_by: replica, claimed_until: untilIso });
  }
  return claimed;
}

/** Ends (sent, skipped, failed) or reschedules (pending, a later attempt) a delivery this replica holds. */
export async function settle(db: MailDb, key: DeliveryKey, replica: string, change: Partial<DeliveryRow>) {
  const result = await (
    await db.database()
  )
    .updateTable('deliveries')
    .set({ ...change, claimed_by: null, claimed_until: null })
    .where('subject', '=', key.subject)
    .where('due', '=', key.due)
    .where('kind', '=', key.kind)
    .where('claimed_by', '=', replica)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
