import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storeKinds } from '@/test/stores';
import type { AppDb } from '../database/connect';
import { migratedDb } from '../database/migrate';
import { createAuditLog, type AuditEntry } from './log';

let dir: string;
let db: AppDb;
let now: number;
let timers: { fn: () => void; ms: number }[];
let lines: { level: string; msg: string }[];
let available: boolean;

const entry = (n: number, at = new Date(now).toISOString()): AuditEntry => ({
  at,
  user: 'grace@example.com',
  account: 'demo',
  role: 'viewer',
  action: 'view_collection',
  target: `pay_${n}`,
  detail: null,
  requestId: `req-${n}`,
  outcome: 'ok',
});

function makeLog(overrides: { cap?: number; batch?: number; echo?: boolean } = {}) {
  return createAuditLog({
    database: async () => (available ? db : null),
    now: () => now,
    log: {
      info: (_o, msg) => lines.push({ level: 'info', msg }),
      error: (_o, msg) => lines.push({ level: 'error', msg }),
    },
    echo: true,
    retentionDays: 365,
    setTimer: (fn, ms) => (timers.push({ fn, ms }), {}),
    ...overrides,
  });
}

/** Runs the timers due, as the event loop would after their delay. */
async function tick(log: ReturnType<typeof makeLog>) {
  const due = timers.splice(0);
  for (const t of due) t.fn();
  await log.flush();
}

const rows = () => db.selectFrom('audit_entries').selectAll().orderBy('id').execute();

describe.each(storeKinds())('on $name', (kind) => {
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-'));
    db = await migratedDb(kind.target(dir));
    now = Date.parse('2026-11-23T12:00:00Z');
    timers = [];
    lines = [];
    available = true;
  });

  afterEach(async () => {
    await db.destroy().catch(() => {});
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('audit log writer', () => {
    it('prints no line on a terminal (echo off), and still writes every entry', async () => {
      const log = makeLog({ echo: false });
      for (let n = 1; n <= 3; n++) log.record(entry(n));
      await tick(log);
      expect(lines).toEqual([]);
      expect(await rows()).toHaveLength(3);
    });

    it('queues at once and writes in one batch when its timer fires, a pino line for each', async () => {
      const log = makeLog();
      for (let n = 1; n <= 3; n++) log.record(entry(n));
      expect(await rows()).toHaveLength(0);
      expect(timers).toHaveLength(1); // one timer for the batch, not one per entry
      expect(lines.filter((l) => l.msg === 'audit: view_collection')).toHaveLength(3);
      await tick(log);
      const written = await rows();
      expect(written.map((r) => [r.target, r.user, r.role, r.action, r.request_id, r.outcome])).toEqual([
        ['pay_1', 'grace@example.com', 'viewer', 'view_collection', 'req-1', 'ok'],
        ['pay_2', 'grace@example.com', 'viewer', 'view_collection', 'req-2', 'ok'],
        ['pay_3', 'grace@example.com', 'viewer', 'view_collection', 'req-3', 'ok'],
      ]);
      expect(log.counters()).toEqual({ written: 3, failedWrites: 0, dropped: 0, pending: 0 });
    });

    it('keeps entries while the database is not there, and writes them when it is', async () => {
      const log = makeLog();
      available = false;
      log.record(entry(1));
      await tick(log);
      expect(log.counters().pending).toBe(1);
      expect(timers.map((t) => t.ms)).toEqual([5_000]); // asks again later
      available = true;
      await tick(log);
      expect(await rows()).toHaveLength(1);
    });

    it('writes a user, target or request id that holds U+0000 with U+FFFD, and the entries after it', async () => {
      // PostgreSQL's text cannot hold a NUL: the batch failed, stayed first in the queue, and no entry was
      // written again.
      const log = makeLog();
      log.record({ ...entry(1), user: 'grace\u0000@example.com', target: 'pay_\u00001', requestId: 'req-\u0000' });
      log.record(entry(2));
      await tick(log);
      expect((await rows()).map((r) => [r.user, r.target, r.request_id])).toEqual([
        ['grace\uFFFD@example.com', 'pay_\uFFFD1', 'req-\uFFFD'],
        ['grace@example.com', 'pay_2', 'req-2'],
      ]);
      expect(log.counters().pending).toBe(0);
    });

    it('counts and logs a failed write loudly, keeps the entries, and writes them on the next try', async () => {
      const log = makeLog();
      log.record(entry(1));
      const real = db;
      db = {
        insertInto: () => ({ values: () => ({ execute: async () => Promise.reject(new Error('disk full')) }) }),
      } as never;
      await tick(log);
      expect(log.counters()).toMatchObject({ written: 0, failedWrites: 1, pending: 1 });
      expect(lines).toContainEqual({
        level: 'error',
        msg: 'audit: could not write entries; keeping them and trying again',
      });
      db = real;
      await tick(log);
      expect(log.counters()).toMatchObject({ written: 1, failedWrites: 1, pending: 0 });
    });

    it('drops the oldest only past its cap, and says so', async () => {
      const log = makeLog({ cap: 2 });
      available = false;
      for (let n = 1; n <= 3; n++) log.record(entry(n));
      expect(log.counters()).toMatchObject({ dropped: 1, pending: 2 });
      expect(lines.some((l) => l.level === 'error' && l.msg.includes('dropped'))).toBe(true);
      available = true;
      await tick(log);
      expect((await rows()).map((r) => r.target)).toEqual(['pay_2', 'pay_3']);
    });

    it('writes a long queue in batches and prunes entries past the retention once a day', async () => {
      const log = makeLog({ batch: 2 });
      log.record(entry(1, '2025-01-01T00:00:00.000Z'));
      for (let n = 2; n <= 5; n++) log.record(entry(n));
      await tick(log);
      // Written in three statements; the one older than 365 days was pruned right after.
      expect((await rows()).map((r) => r.target)).toEqual(['pay_2', 'pay_3', 'pay_4', 'pay_5']);
      log.record(entry(6, '2025-11-20T00:00:00.000Z'));
      await tick(log);
      expect(await rows()).toHaveLength(5); // not a day since the last prune
      now += 86_400_000;
      log.record(entry(7));
      await tick(log);
      expect((await rows()).map((r) => r.target)).toEqual(['pay_2', 'pay_3', 'pay_4', 'pay_5', 'pay_7']);
    });
  });
});
