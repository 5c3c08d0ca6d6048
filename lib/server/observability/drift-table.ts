import 'server-only';
import { sql } from 'kysely';
import type { DriftObservation } from '@/lib/api/drift';
import type { Clock } from '../clock';
import type { AppDb } from '../database/connect';
import { DRIFT_BASELINE_KEY } from '../database/schema';

/**
 * The `drift` table, the report's lasting half: a batch of what was seen is added to it (counts added, first
 * and last seen kept), the report is read from it, and an admin's acknowledgement is kept in it. The
 * collector (drift.ts) decides when; this file only knows the rows.
 */
export type Seen = DriftObservation & { count: number; firstSeen: string; lastSeen: string; exampleId: string };
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

/** One observation's identity: its row's key (kind, path, value) as one string. */
export const keyOf = (o: DriftObservation) => `${o.kind}|${o.path}|${o.value ?? ''}`;

/**
 * Adds a batch to the table in one transaction, in the order given: a sighting already there has its count
 * added and its first and last seen kept. Throws when the write fails (nothing of the batch is then saved).
 */
export async function saveBatch(db: AppDb, batch: Seen[]): Promise<void> {
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
}

/** The report as the table holds it, newest sighting first; an entry is baseline when acknowledged or old. */
export async function readReport(db: AppDb): Promise<DriftReport> {
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
}

/**
 * Marks an entry acknowledged by an admin, now by `clock`; false when the table has no such entry.
 * Acknowledged again, its first who and when are kept.
 */
export async function acknowledgeEntry(db: AppDb, entry: DriftObservation, by: string, clock: Clock): Promise<boolean> {
  const found = await db
    .selectFrom('drift')
    .select('acknowledged_at')
    .where('kind', '=', entry.kind)
    .where('path', '=', entry.path)
    .where('value', '=', entry.value ?? '')
    .executeTakeFirst();
  if (!found) return false;
  if (!found.acknowledged_at)
    await db
      .updateTable('drift')
      .set({ acknowledged_at: new Date(clock.now()).toISOString(), acknowledged_by: by })
      .where('kind', '=', entry.kind)
      .where('path', '=', entry.path)
      .where('value', '=', entry.value ?? '')
      .where('acknowledged_at', 'is', null)
      .execute();
  return true;
}
