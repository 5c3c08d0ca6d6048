import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { holdTheWriter, runtimeSqlite } from '@/test/held-writer';
import { sampleCollection } from '@/test/samples';
import { storeKinds } from '@/test/stores';
import type { AppDb } from '../database/connect';
import { migratedDb } from '../database/migrate';
import { createDriftCollector } from './drift';

/**
 * The drift report as the table keeps it, on both stores: an unknown value is saved with its count and an
 * example, whatever characters the upstream put in it.
 */
let dir: string;
let db: AppDb;

describe.each(storeKinds())('the drift report on $name', (kind) => {
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'drift-'));
    db = await migratedDb(kind.target(dir));
  });
  afterEach(async () => {
    await db.destroy();
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });

  it('saves an unknown status, field and id that hold U+0000, with U+FFFD in its place', async () => {
    const errors: string[] = [];
    const drift = createDriftCollector({
      database: async () => db,
      clock: { now: () => Date.parse('2026-11-28T10:00:00.000Z'), after: () => () => {} },
      log: { error: (_obj, msg) => void errors.push(msg) },
    });
    const record = { ...sampleCollection({ id: 'pay_a\u0000b', status: 'pending\u0000' }), ['extra\u0000']: 1 };
    drift.observeAnswer('list', { data: [record, record] });
    const { entries } = await drift.report();
    expect(errors).toEqual([]);
    expect(entries.map((e) => [e.kind, e.path, e.value, e.count, e.exampleId]).sort()).toEqual([
      ['field', 'collection.extra\uFFFD', undefined, 2, 'pay_a\uFFFDb'],
      ['value', 'collection.status', 'pending\uFFFD', 2, 'pay_a\uFFFDb'],
    ]);
  });
});

/** The report as the runtime makes it: saved through the writer, read where the searches read. */
const runtimeCollector = (app: Awaited<ReturnType<typeof runtimeSqlite>>) =>
  createDriftCollector({
    database: () => app.database.available(),
    reads: () => app.database.readable(),
    clock: { now: () => Date.parse('2026-11-28T10:00:00.000Z'), after: () => () => {} },
    log: { error: () => {} },
  });

describe('the drift report read beside a write in flight (SQLite: the writer is one connection)', () => {
  it("answers while a sync's transaction holds the writer, with what was saved before it", async () => {
    const app = await runtimeSqlite();
    try {
      const drift = runtimeCollector(app);
      drift.observeAnswer('list', { data: [sampleCollection({ id: 'pay_drift', status: 'paused' })] });
      await drift.flush();
      // Written and waiting: a report read through the writer would wait for it, and this test would time out.
      const held = await holdTheWriter(app.db, (trx) => trx.updateTable('drift').set({ count: 99 }).execute());
      try {
        const { entries } = await drift.report();
        expect(entries.map((e) => [e.path, e.value, e.count])).toEqual([['collection.status', 'paused', 1]]);
      } finally {
        await held.release();
      }
      expect((await drift.report()).entries[0]?.count).toBe(99);
    } finally {
      await app.close();
    }
  }, 30_000);

  it('waits for a save under way before it reads: what was seen before the report is in it', async () => {
    const app = await runtimeSqlite();
    try {
      const drift = runtimeCollector(app);
      await drift.report(); // the reads thread started
      const held = await holdTheWriter(app.db, (trx) => trx.deleteFrom('drift').execute());
      drift.observeAnswer('list', { data: [sampleCollection({ id: 'pay_later', status: 'frozen' })] });
      // The timed save takes what was seen and waits for the writer; the report asks while it waits.
      const saving = drift.flush();
      await new Promise((resolve) => setImmediate(resolve)); // the save has taken it, and waits for the writer
      const report = drift.report();
      // It waits for the save (read at once, it would hold nothing): still waiting a while later.
      const first = await Promise.race([
        report.then(() => 'answered'),
        new Promise((resolve) => setTimeout(() => resolve('waiting'), 300)),
      ]);
      expect(first).toBe('waiting');
      await held.release();
      await saving;
      expect((await report).entries.map((e) => [e.path, e.value, e.exampleId])).toEqual([
        ['collection.status', 'frozen', 'pay_later'],
      ]);
    } finally {
      await app.close();
    }
  }, 30_000);
});
