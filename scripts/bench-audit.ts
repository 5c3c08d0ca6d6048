/**
 * The audit log's cost to a request (issue 16: "never delays the response by
 * more than 1 ms p50"), measured on the real writer and a real SQLite file:
 * what a request pays (`record()`: its pino line and a push onto the queue)
 * and what a batch write costs the event loop when its timer fires; and the
 * schema-drift collector's cost on a 100-record list page (issue 17). Run by
 * `npm run bench` (or alone: `npx tsx --conditions=react-server scripts/bench-audit.ts`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createAuditLog, type AuditEntry } from '../lib/server/audit/log';
import { systemClock } from '../lib/server/clock';
import { migratedDb } from '../lib/server/database/migrate';
import { createDriftCollector } from '../lib/server/observability/drift';

const dir = mkdtempSync(join(tmpdir(), 'bench-audit-'));
const db = await migratedDb({ kind: 'sqlite', path: join(dir, 'index.sqlite') });
// The server's own logger writes JSON lines to stdout; here to /dev/null, at the same level.
const logger = pino({ level: 'info' }, pino.destination('/dev/null'));
const log = createAuditLog({
  database: async () => db,
  now: Date.now,
  log: logger,
  echo: true, // the machine-log path, a line per entry: the heavier one
  retentionDays: 365,
  setTimer: () => ({}), // flushed by hand below, to time it apart
});

const entry = (n: number): AuditEntry => ({
  at: new Date().toISOString(),
  user: 'grace@example.com',
  account: 'demo',
  role: 'viewer',
  action: 'view_collection',
  target: `pay_${n.toString(36).padStart(22, '0')}`,
  detail: { page: 1, results: n },
  requestId: crypto.randomUUID(),
  outcome: 'ok',
});

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;
const record: number[] = [];
const flush: number[] = [];
for (let round = 0; round < 40; round++) {
  for (let i = 0; i < 500; i++) {
    const e = entry(round * 500 + i);
    const t = process.hrtime.bigint();
    log.record(e);
    record.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const t = process.hrtime.bigint();
  await log.flush();
  flush.push(Number(process.hrtime.bigint() - t) / 1e6);
}
// The drift collector on what a list page brings: 100 records as the upstream sends them, with drift in them.
const { sampleCollection } = await import('../test/samples');
const { observeAnswer } = createDriftCollector({ database: async () => db, clock: systemClock, log: logger });
const page = {
  status: 'success',
  message: '',
  data: Array.from({ length: 100 }, (_, i) => ({
    ...sampleCollection({ id: `pay_bench${i}`, status: i % 3 ? 'pending' : 'expired' }),
    riskScore: i,
  })),
};
const drift: number[] = [];
for (let round = 0; round < 200; round++) {
  const t = process.hrtime.bigint();
  observeAnswer('list', page);
  drift.push(Number(process.hrtime.bigint() - t) / 1e6);
}

const rows = await db
  .selectFrom('audit_entries')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
const result = {
  entries: Number(rows.n),
  recordP50Ms: percentile(record, 0.5),
  recordP99Ms: percentile(record, 0.99),
  flush500P50Ms: percentile(flush, 0.5),
  flush500P99Ms: percentile(flush, 0.99),
  drift100P50Ms: percentile(drift, 0.5),
  drift100P99Ms: percentile(drift, 0.99),
};
console.log(JSON.stringify(result));
await db.destroy();
rmSync(dir, { recursive: true, force: true });
