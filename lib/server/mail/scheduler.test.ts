import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeClock, type FakeClock } from '@/test/fake-clock';
import { storeKinds } from '@/test/stores';
import type { AppDb } from '../database/connect';
import { migratedDb } from '../database/migrate';
import { SendError } from './mailer';
import { createScheduler, type Outcome } from './scheduler';
import { deliveriesOf, insertSubscription, subscriptionById, type DeliveryRow, type SubscriptionRow } from './store';

let dir: string;
let db: AppDb;
let clock: FakeClock;

const subscription = (over: Partial<SubscriptionRow> = {}): SubscriptionRow => ({
  id: 'sub_daily',
  account: 'acct',
  owner: 'owner@example.com',
  role: 'viewer',
  owner_email: 'owner@example.com',
  view_id: 'view_a',
  view_name: 'Pending',
  schedule: JSON.stringify({ every: 'day', at: '09:00', zone: 'UTC' }),
  send_when: 'always',
  above: null,
  recipients: '[]',
  attach_csv: 0,
  state: 'active',
  paused_reason: null,
  next_due: '2026-12-07T09:00:00.000Z',
  last_report_at: null,
  last_count: null,
  last_ids: null,
  created_at: '2026-12-01T00:00:00.000Z',
  updated_at: '2026-12-01T00:00:00.000Z',
  ...over,
});

describe.each(storeKinds())('the reports’ scheduler on $name', (kind) => {
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scheduler-'));
    db = await migratedDb(kind.target(dir));
    clock = fakeClock(Date.parse('2026-12-07T08:59:00Z'));
  });
  afterEach(async () => {
    await db.destroy().catch(() => {});
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });

  const replica = (name: string, run: (d: DeliveryRow) => Promise<Outcome>, leads = () => true) => {
    const failed: DeliveryRow[] = [];
    const scheduler = createScheduler({
      db: { database: async () => db },
      clock,
      replica: name,
      leads,
      run,
      failed: (d) => void failed.push(d),
      log: { warn: () => {} },
    });
    return { scheduler, failed };
  };
  const sent: string[] = [];
  const sender = (name: string) => async (d: DeliveryRow) => {
    sent.push(`${name}:${d.subject}@${d.due}`);
    return { status: 'sent' as const };
  };
  beforeEach(() => void sent.splice(0));
  const store = { database: async () => db };

  it('records each due time once before sending, across two replicas and a restart', async () => {
    await insertSubscription(store, subscription());
    const a = replica('a', sender('a'));
    const b = replica('b', sender('b'));
    await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    expect(sent).toEqual([]);
    await clock.advance(60_000);
    await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    await a.scheduler.tick();
    // A restart: a new scheduler over the same database.
    await replica('a2', sender('a2')).scheduler.tick();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/sub_daily@2026-12-07T09:00:00.000Z$/);
    expect((await subscriptionById(store, 'sub_daily'))!.next_due).toBe('2026-12-08T09:00:00.000Z');
    const [delivery] = await deliveriesOf(store, 'sub_daily');
    expect(delivery).toMatchObject({ status: 'sent', attempts: 1, kind: 'report' });
  });

  it('only the leader sends, and a clock moved back sends nothing again', async () => {
    await insertSubscription(store, subscription());
    const follower = replica('f', sender('f'), () => false);
    await clock.advance(2 * 60_000);
    await follower.scheduler.tick();
    expect(sent).toEqual([]);
    const leader = replica('l', sender('l'));
    await leader.scheduler.tick();
    expect(sent).toHaveLength(1);
    // Back an hour: the next due time (tomorrow) is still ahead; today's stays recorded.
    await clock.advance(-60 * 60_000);
    await leader.scheduler.tick();
    expect(sent).toHaveLength(1);
  });

  it('sends a due time missed while down once, then goes on from now', async () => {
    await insertSubscription(store, subscription());
    await clock.advance(3 * 24 * 60 * 60_000);
    const { scheduler } = replica('a', sender('a'));
    await scheduler.tick();
    await scheduler.tick();
    expect(sent).toHaveLength(1);
    expect((await subscriptionById(store, 'sub_daily'))!.next_due).toBe('2026-12-10T09:00:00.000Z');
  });

  it('retries a failed send with backoff for an hour, then marks it failed with the SMTP error', async () => {
    await insertSubscription(store, subscription());
    let tries = 0;
    const down = replica('a', async () => {
      tries++;
      throw new SendError('connect ECONNREFUSED 127.0.0.1:2525', 'ECONNECTION', null);
    });
    await clock.advance(60_000);
    await down.scheduler.tick();
    expect(tries).toBe(1);
    let [row] = await deliveriesOf(store, 'sub_daily');
    expect(row).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: '2026-12-07T09:01:00.000Z' });
    await down.scheduler.tick();
    expect(tries).toBe(1);
    for (let minute = 0; minute < 62; minute++) {
      await clock.advance(60_000);
      await down.scheduler.tick();
    }
    [row] = await deliveriesOf(store, 'sub_daily');
    expect(row).toMatchObject({ status: 'failed', error: 'connect ECONNREFUSED 127.0.0.1:2525' });
    expect(tries).toBeGreaterThanOrEqual(5);
    expect(tries).toBeLessThanOrEqual(9);
    expect(down.failed).toHaveLength(1);
  });

  it('a replica killed mid-send leaves its claim to lapse, and another sends it once', async () => {
    await insertSubscription(store, subscription());
    await clock.advance(60_000);
    const killed = replica('killed', () => new Promise<Outcome>(() => {}));
    void killed.scheduler.tick();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const other = replica('other', sender('other'));
    await other.scheduler.tick();
    expect(sent).toEqual([]);
    await clock.advance(4 * 60_000);
    await other.scheduler.tick();
    await other.scheduler.tick();
    expect(sent).toEqual(['other:sub_daily@2026-12-07T09:00:00.000Z']);
  });
});
