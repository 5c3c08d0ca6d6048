/**
 * `npm run bench:writes`: what a first scan's writes cost, on each store, apart from everything else a sync
 * does. Records generated as the sandbox makes them are prepared first (sealed, tokenised: a first scan does
 * that while the page before is written), then written as an unpaced first scan writes them: 1,000 a
 * transaction, new records' tokens staged and merged. Reports the writes' time, the request thread's CPU in
 * them (the process's, every thread: the writer's thread on SQLite included), and the time per record by
 * 50,000. PostgreSQL is a server of its own (scripts/postgres-server.ts, the bench settings) on port 5620.
 *
 *   BENCH_WRITES_RECORDS=100000   records written on each store
 *   BENCH_WRITES_STORE=sqlite|postgres   one store only (`npm run bench:index` reads the machine's pace so)
 *
 * Run with `tsx --conditions=react-server` (the modules are server-only). Prints one JSON line a store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectionSchema, type Collection } from '../lib/api/schemas';
import type { DatabaseTarget } from '../lib/server/env';
import { blindKeys } from '../lib/server/search-index/shared/blind';
import { openIndexStore } from '../lib/server/search-index/store';
import { createRandom } from '../sandbox/random';
import { makeCollection } from '../sandbox/seed-data';
import { postgresBinaries, SIZED_SETTINGS, startPostgres } from './postgres-server';

const RECORDS = Number(process.env.BENCH_WRITES_RECORDS ?? 100_000);
const PAGE = 1_000;
const SEGMENT = 50_000;

function records(): Collection[] {
  const r = createRandom(42);
  const start = Date.parse('2025-01-01T00:00:00.000Z');
  return Array.from({ length: RECORDS }, (_, i) =>
    collectionSchema.parse(makeCollection(r, i, start + i * 60_000, true)),
  );
}

async function measure(name: string, target: DatabaseTarget) {
  const store = await openIndexStore({
    target,
    keys: blindKeys('bench-writes-secret-of-at-least-32-characters'),
    account: 'acct_bench_writes',
  });
  try {
    const pages: Collection[][] = [];
    const all = records();
    for (let i = 0; i < all.length; i += PAGE) pages.push(all.slice(i, i + PAGE));
    for (const page of pages) await store.prepare(page);
    const seenAt = new Date().toISOString();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const segments: number[] = [];
    let from = started;
    for (const [i, page] of pages.entries()) {
      await store.upsert(page, seenAt, { bulk: true, stage: true });
      if (((i + 1) * PAGE) % SEGMENT === 0) {
        segments.push(Math.round(((performance.now() - from) * 1000) / SEGMENT));
        from = performance.now();
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    console.log(
      JSON.stringify({
        store: name,
        records: RECORDS,
        writesS: Math.round(seconds * 100) / 100,
        cpuS: Math.round((used.user + used.system) / 10_000) / 100,
        usPerRecordBy50k: segments,
      }),
    );
  } finally {
    await store.close();
  }
}

const ONLY = process.env.BENCH_WRITES_STORE;
if (ONLY !== undefined && ONLY !== 'sqlite' && ONLY !== 'postgres')
  throw new Error(`BENCH_WRITES_STORE must be sqlite or postgres (or unset for both), not ${ONLY}`);
const dir = mkdtempSync(join(tmpdir(), 'bench-writes-'));
try {
  if (ONLY !== 'postgres') await measure('SQLite', { kind: 'sqlite', path: join(dir, 'index.sqlite') });
  if (ONLY !== 'sqlite' && !postgresBinaries()) console.log('PostgreSQL: not installed here (no initdb): skipped');
  else if (ONLY !== 'sqlite') {
    const server = await startPostgres({ port: 5620, database: 'writes', settings: SIZED_SETTINGS });
    try {
      await measure('PostgreSQL', { kind: 'postgres', url: server.url, poolMax: 4, ssl: false });
    } finally {
      await server.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
