import 'server-only';
import { driftOf, type DriftObservation } from '@/lib/api/drift';
import { logger } from '../logger';
import type { IndexDb } from '../search-index/store';

/**
 * Collects schema drift from every upstream answer the dashboard parses (the
 * sync's pages included), in memory at a microsecond a record, and adds it to
 * the `drift` table every 30 s (counts added, first and last seen kept), so
 * the report outlives restarts and replicas add up.
 */
export type DriftEntry = DriftObservation & { count: number; firstSeen: string; lastSeen: string; exampleId: string };
const keyOf = (o: DriftObservation) => `${o.kind}|${o.path}|${o.value ?? ''}`;
type Collector = { pending: Map<string, DriftEntry>; timer: boolean; database: (() => Promise<IndexDb | null>) | null };

const KEY = Symbol.for('collections-console.drift');
const FLUSH_MS = 30_000;

function collector(): Collector {
  const global = globalThis as Record<symbol, Collector | undefined>;
  return (global[KEY] ??= { pending: new Map(), timer: false, database: null });
}

/** Where the report is kept: the audit log's database (set by audit.ts; no import the other way round). */
export function setDriftDatabase(database: () => Promise<IndexDb | null>) {
  collector().database = database;
}

const database = () =>
  collector()
    .database?.()
    .catch(() => null) ?? Promise.resolve(null);

/** An upstream answer, as parsed: a list page's records or one record. */
export function observeAnswer(operation: 'list' | 'collection' | 'provider', envelope: unknown) {
  const data = (envelope as { data?: unknown })?.data;
  const records = Array.isArray(data) ? data : [data];
  const kind = operation === 'provider' ? 'provider' : 'collection';
  const now = new Date().toISOString();
  const c = collector();
  for (const record of records) {
    const id = String((record as { id?: unknown })?.id ?? '');
    const once = new Set<string>();
    for (const o of driftOf(kind, record)) {
      const key = keyOf(o);
      if (once.has(key)) continue;
      once.add(key);
      const seen = c.pending.get(key);
      if (seen) {
        seen.count += 1;
        seen.lastSeen = now;
      } else c.pending.set(key, { ...o, count: 1, firstSeen: now, lastSeen: now, exampleId: id });
    }
  }
  if (c.pending.size && !c.timer) {
    c.timer = true;
    setTimeout(() => {
      c.timer = false;
      void flushDrift();
    }, FLUSH_MS).unref();
  }
}

/** Adds what was seen since the last time to the table. */
export async function flushDrift(): Promise<void> {
  const c = collector();
  if (!c.pending.size) return;
  const db = await database();
  if (!db) return;
  // In key order: replicas flushing into one PostgreSQL table lock its rows in the same order (no deadlock).
  const batch = [...c.pending.values()].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  c.pending.clear();
  try {
    await db.transaction().execute(async (trx) => {
      for (const s of batch)
        await trx
          .insertInto('drift')
          .values({
            kind: s.kind,
            path: s.path,
            value: s.value ?? '',
            count: s.count,
            first_seen: s.firstSeen,
            last_seen: s.lastSeen,
            example_id: s.exampleId,
          })
          .onConflict((oc) =>
            oc.columns(['kind', 'path', 'value']).doUpdateSet((eb) => ({
              count: eb('drift.count', '+', eb.ref('excluded.count')),
              last_seen: eb.ref('excluded.last_seen'),
            })),
          )
          .execute();
    });
  } catch (error) {
    // Not lost: back in the pending map, merged with what arrived meanwhile.
    for (const s of batch) {
      const key = keyOf(s);
      const now = c.pending.get(key);
      c.pending.set(key, now ? { ...s, count: s.count + now.count, lastSeen: now.lastSeen } : s);
    }
    logger.error({ err: error instanceof Error ? error.message : String(error) }, 'drift: could not save the report');
  }
}

/** The report: what was saved, with what is still in memory written first. */
export async function driftReport(): Promise<DriftEntry[]> {
  await flushDrift();
  const db = await database();
  if (!db) return [];
  const rows = await db.selectFrom('drift').selectAll().orderBy('last_seen', 'desc').orderBy('path').execute();
  return rows.map((r) => ({
    kind: r.kind as DriftObservation['kind'],
    path: r.path,
    ...(r.kind === 'value' ? { value: r.value } : {}),
    count: r.count,
    firstSeen: r.first_seen,
    lastSeen: r.last_seen,
    exampleId: r.example_id,
  }));
}
