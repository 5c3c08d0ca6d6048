import 'server-only';
import { sql } from 'kysely';
import { driftOf, type DriftObservation } from '@/lib/api/drift';
import type { Clock } from '../clock';
import type { AppDb } from '../database/connect';
import { DRIFT_BASELINE_KEY } from '../database/schema';
import { withoutNul } from '../database/text';

/**
 * Collects schema drift from every upstream answer the dashboard parses (the
 * sync's pages included), in memory at a microsecond a record, and adds it to
 * the `drift` table every 30 s (counts added, first and last seen kept), so
 * the report outlives restarts and replicas add up.
 */
type Seen = DriftObservation & { count: number; firstSeen: string; lastSeen: string; exampleId: string };
export type DriftEntry = Seen & {
  /**
   * Part of the account's baseline: first seen by the end of the dashboard's first whole sync (what the
   * upstream has always sent), or acknowledged by an admin. The rest is new since, and highlighted.
   */
  baseline: boolean;
  acknowledged?: { at: string; by: string };
};
export type DriftReport = {
  entries: DriftEntry[];
  /** When the first whole sync ended (the baseline's end); null until then (or with the index off). */
  baselineAt: string | null;
};
const keyOf = (o: DriftObservation) => `${o.kind}|${o.path}|${o.value ?? ''}`;

const FLUSH_MS = 30_000;

export function createDriftCollector(deps: {
  /** The application's database, or null while it is not open (what was seen waits in memory). */
  database: () => Promise<AppDb | null>;
  /**
   * Where the report is read (database.ts `readable`: not through the writer, which a sync's transaction holds);
   * `database` when not given.
   */
  reads?: () => Promise<AppDb | null>;
  clock: Clock;
  log: { error: (obj: object, msg: string) => void };
}) {
  const pending = new Map<string, Seen>();
  let timer = false;
  const database = () => deps.database().catch(() => null);
  const reads = () => (deps.reads ?? deps.database)().catch(() => null);

  /** The write under way, if any: a flush (the report's) waits for it before it writes what is left. */
  let writing: Promise<void> | null = null;

  /**
   * Adds what was seen since the last time to the table, after the write under way: when it returns, what was
   * seen before it was called is in the table (or back in memory if the write failed), so the report read next,
   * where the searches read, holds it.
   */
  async function flush(): Promise<void> {
    while (writing) await writing;
    if (!pending.size) return;
    writing = write().finally(() => (writing = null));
    await writing;
  }

  async function write(): Promise<void> {
    const db = await database();
    if (!db) return;
    // In key order: replicas flushing into one PostgreSQL table lock its rows in the same order (no deadlock).
    const batch = [...pending.values()].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
    pending.clear();
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
                // The earliest sighting of every replica's (one that flushes later may have seen it first).
                first_seen: sql<string>`case when excluded.first_seen < drift.first_seen then excluded.first_seen else drift.first_seen end`,
              })),
            )
            .execute();
      });
    } catch (error) {
      // Not lost: back in the pending map, merged with what arrived meanwhile.
      for (const s of batch) {
        const key = keyOf(s);
        const now = pending.get(key);
        pending.set(key, now ? { ...s, count: s.count + now.count, lastSeen: now.lastSeen } : s);
      }
      deps.log.error(
        { err: error instanceof Error ? error.message : String(error) },
        'drift: could not save the report',
      );
    }
  }

  return {
    /** An upstream answer, as parsed: a list page's records or one record. */
    observeAnswer(operation: 'list' | 'collection' | 'provider', envelope: unknown) {
      const data = (envelope as { data?: unknown })?.data;
      const records = Array.isArray(data) ? data : [data];
      const kind = operation === 'provider' ? 'provider' : 'collection';
      const now = new Date(deps.clock.now()).toISOString();
      for (const record of records) {
        // As the table can keep them: an unknown status 'pending\0' failed every flush on PostgreSQL.
        const id = withoutNul(String((record as { id?: unknown })?.id ?? ''));
        const once = new Set<string>();
        for (const observed of driftOf(kind, record)) {
          const o = {
            ...observed,
            path: withoutNul(observed.path),
            ...(observed.value != null && { value: withoutNul(observed.value) }),
          };
          const key = keyOf(o);
          if (once.has(key)) continue;
          once.add(key);
          const seen = pending.get(key);
          if (seen) {
            seen.count += 1;
            seen.lastSeen = now;
          } else pending.set(key, { ...o, count: 1, firstSeen: now, lastSeen: now, exampleId: id });
        }
      }
      if (pending.size && !timer) {
        timer = true;
        deps.clock.after(FLUSH_MS, () => {
          timer = false;
          void flush();
        });
      }
    },
    flush,
    /** The report: what was saved, with what is still in memory written first; the baseline apart. */
    async report(): Promise<DriftReport> {
      await flush();
      const db = await reads();
      if (!db) return { entries: [], baselineAt: null };
      const [rows, mark] = await Promise.all([
        db.selectFrom('drift').selectAll().orderBy('last_seen', 'desc').orderBy('path').execute(),
        db.selectFrom('index_meta').select('value').where('key', '=', DRIFT_BASELINE_KEY).executeTakeFirst(),
      ]);
      const baselineAt = mark?.value ?? null;
      return {
        baselineAt,
        entries: rows.map((r) => ({
          kind: r.kind as DriftObservation['kind'],
          path: r.path,
          ...(r.kind === 'value' ? { value: r.value } : {}),
          count: r.count,
          firstSeen: r.first_seen,
          lastSeen: r.last_seen,
          exampleId: r.example_id,
          baseline: Boolean(r.acknowledged_at) || (baselineAt !== null && r.first_seen <= baselineAt),
          ...(r.acknowledged_at ? { acknowledged: { at: r.acknowledged_at, by: r.acknowledged_by ?? '' } } : {}),
        })),
      };
    },
    /**
     * An admin acknowledges an entry: it joins the baseline (kept with when and by whom). False when the
     * report has no such entry.
     */
    async acknowledge(entry: DriftObservation, by: string): Promise<boolean> {
      await flush();
      const db = await database();
      if (!db) throw new Error('The drift report cannot be read: the database is not open.');
      const found = await db
        .selectFrom('drift')
        .select('acknowledged_at')
        .where('kind', '=', entry.kind)
        .where('path', '=', entry.path)
        .where('value', '=', entry.value ?? '')
        .executeTakeFirst();
      if (!found) return false;
      // Acknowledged again: its first who and when are kept.
      if (!found.acknowledged_at)
        await db
          .updateTable('drift')
          .set({ acknowledged_at: new Date(deps.clock.now()).toISOString(), acknowledged_by: by })
          .where('kind', '=', entry.kind)
          .where('path', '=', entry.path)
          .where('value', '=', entry.value ?? '')
          .where('acknowledged_at', 'is', null)
          .execute();
      return true;
    },
  };
}

export type DriftCollector = ReturnType<typeof createDriftCollector>;
