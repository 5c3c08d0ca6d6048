import 'server-only';
import { driftOf, type DriftObservation } from '@/lib/api/drift';
import type { Clock } from '../clock';
import type { AppDb } from '../database/connect';
import { withoutNul } from '../database/text';
import { acknowledgeEntry, keyOf, readReport, saveBatch, type DriftReport, type Seen } from './drift-table';

/**
 * Collects schema drift from every upstream answer the dashboard parses (the
 * sync's pages included), in memory at a microsecond a record, and adds it to
 * the `drift` table every 30 s (counts added, first and last seen kept), so
 * the report outlives restarts and replicas add up.
 */
export type { DriftEntry, DriftReport } from './drift-table';

const FLUSH_MS = 30_000;

/** What the collector's steps share: where it writes and reads, and what was seen but is not saved yet. */
type Collector = {
  /** The application's database, or null while it is not open (or its opening failed). */
  database: () => Promise<AppDb | null>;
  /** Where the report is read, or null while it is not open. */
  reads: () => Promise<AppDb | null>;
  clock: Clock;
  log: { error: (obj: object, msg: string) => void };
  /** What was seen since the last write, by `keyOf`. */
  pending: Map<string, Seen>;
  /** A flush is scheduled: at most one waits at a time. */
  timer: boolean;
  /** The write under way, if any: a flush (the report's) waits for it before it writes what is left. */
  writing: Promise<void> | null;
};

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
  const collector: Collector = {
    database: () => deps.database().catch(() => null),
    reads: () => (deps.reads ?? deps.database)().catch(() => null),
    clock: deps.clock,
    log: deps.log,
    pending: new Map(),
    timer: false,
    writing: null,
  };
  return {
    /** An upstream answer, as parsed: a list page's records or one record. */
    observeAnswer(operation: 'list' | 'collection' | 'provider', envelope: unknown) {
      observe(collector, operation, envelope);
    },
    flush: (): Promise<void> => flushPending(collector),
    /** The report: what was saved, with what is still in memory written first; the baseline apart. */
    report(): Promise<DriftReport> {
      return buildReport(collector);
    },
    /**
     * An admin acknowledges an entry: it joins the baseline (kept with when and by whom). False when the
     * report has no such entry.
     */
    acknowledge(entry: DriftObservation, by: string): Promise<boolean> {
      return acknowledgeOne(collector, entry, by);
    },
  };
}

export type DriftCollector = ReturnType<typeof createDriftCollector>;

/** Adds an answer's records to what is pending, and schedules a flush when none is. */
function observe(c: Collector, operation: 'list' | 'collection' | 'provider', envelope: unknown): void {
  const data = (envelope as { data?: unknown })?.data;
  const records = Array.isArray(data) ? data : [data];
  const kind = operation === 'provider' ? 'provider' : 'collection';
  const now = new Date(c.clock.now()).toISOString();
  for (const record of records) addRecord(c.pending, kind, record, now);
  if (c.pending.size && !c.timer) {
    c.timer = true;
    c.clock.after(FLUSH_MS, () => {
      c.timer = false;
      void flushPending(c);
    });
  }
}

/** One record's drift, counted once per record however often it holds it, seen `now`. */
function addRecord(pending: Map<string, Seen>, kind: 'collection' | 'provider', record: unknown, now: string): void {
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

/**
 * Adds what was seen since the last time to the table, after the write under way: when it returns, what was
 * seen before it was called is in the table (or back in memory if the write failed), so the report read next,
 * where the searches read, holds it.
 */
async function flushPending(c: Collector): Promise<void> {
  while (c.writing) await c.writing;
  if (!c.pending.size) return;
  c.writing = write(c).finally(() => (c.writing = null));
  await c.writing;
}

/** Moves everything pending into the table; what a failed write held goes back to pending, and is logged. */
async function write(c: Collector): Promise<void> {
  const db = await c.database();
  if (!db) return;
  // In key order: replicas flushing into one PostgreSQL table lock its rows in the same order (no deadlock).
  const batch = [...c.pending.values()].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  c.pending.clear();
  try {
    await saveBatch(db, batch);
  } catch (error) {
    putBack(c.pending, batch);
    c.log.error({ err: error instanceof Error ? error.message : String(error) }, 'drift: could not save the report');
  }
}

/** A batch that was not saved, merged with what arrived meanwhile: nothing seen is lost. */
function putBack(pending: Map<string, Seen>, batch: Seen[]): void {
  for (const s of batch) {
    const key = keyOf(s);
    const now = pending.get(key);
    pending.set(key, now ? { ...s, count: s.count + now.count, lastSeen: now.lastSeen } : s);
  }
}

async function buildReport(c: Collector): Promise<DriftReport> {
  await flushPending(c);
  const db = await c.reads();
  if (!db) return { entries: [], baselineAt: null };
  return readReport(db);
}

async function acknowledgeOne(c: Collector, entry: DriftObservation, by: string): Promise<boolean> {
  await flushPending(c);
  const db = await c.database();
  if (!db) throw new Error('The drift report cannot be read: the database is not open.');
  return acknowledgeEntry(db, entry, by, c.clock);
}
