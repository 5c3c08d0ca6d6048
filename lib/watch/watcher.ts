import { statusMeaning } from '@/lib/format/labels';

/**
 * "Watch" on a collection still waiting (pending, on hold, processing; contract section 9): the record
 * re-read every 10 s while the tab is visible, backing off on errors and 429s, stopping when its status
 * no longer waits or after 30 minutes. A state
 * machine over an injected clock and reader, so its timing is tested with a
 * fake clock; the component only renders its state.
 */
export const INTERVAL_MS = 10_000;
export const MAX_BACKOFF_MS = 5 * 60_000;
export const MAX_WATCH_MS = 30 * 60_000;

export type Reading<T> =
  { ok: true; record: T } | { ok: false; code: string; message: string; retryAfterS?: number; final?: boolean };

export type Change = { field: string; before: string; after: string };

export type WatchState<T> = {
  phase: 'watching' | 'stopped';
  /** Why it stopped. */
  reason?: 'left-waiting' | 'time-limit' | 'by-user' | 'failed';
  record: T;
  lastCheckedAt: number | null;
  /** When the next read is due (null while stopped or paused). */
  nextAt: number | null;
  /** Consecutive failures; the last one's message. */
  failures: number;
  error: string | null;
  paused: boolean;
  /** The fields the last change touched (kept until the next change). */
  changes: Change[];
  changedAt: number | null;
};

export type Clock = {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

/** Values compared field by field: the summary people read, plus anything else at the top level. */
const show = (value: unknown): string =>
  value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value);

export function diffRecords(before: Record<string, unknown>, after: Record<string, unknown>): Change[] {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]))
    .map((field) => ({ field, before: show(before[field]), after: show(after[field]) }));
}

export function backoffMs(failures: number, retryAfterS?: number): number {
  const exponential = Math.min(MAX_BACKOFF_MS, INTERVAL_MS * 2 ** failures);
  return retryAfterS ? Math.max(exponential, retryAfterS * 1000) : exponential;
}

export function createWatcher<T extends { status: string }>(options: {
  record: T;
  read: (signal: AbortSignal) => Promise<Reading<T>>;
  clock: Clock;
  onState: (state: WatchState<T>) => void;
}) {
  const { clock, read, onState } = options;
  const startedAt = clock.now();
  let timer: unknown = null;
  let inFlight: AbortController | null = null;
  let state: WatchState<T> = {
    phase: 'watching',
    record: options.record,
    lastCheckedAt: null,
    nextAt: startedAt + INTERVAL_MS,
    failures: 0,
    error: null,
    paused: false,
    changes: [],
    changedAt: null,
  };

  const set = (patch: Partial<WatchState<T>>) => {
    state = { ...state, ...patch };
    onState(state);
  };

  function schedule(at: number) {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    if (state.phase !== 'watching' || state.paused) return set({ nextAt: state.paused ? null : at });
    const deadline = startedAt + MAX_WATCH_MS;
    if (at >= deadline) {
      timer = clock.setTimeout(() => stop('time-limit'), Math.max(0, deadline - clock.now()));
      return set({ nextAt: null });
    }
    timer = clock.setTimeout(check, Math.max(0, at - clock.now()));
    set({ nextAt: at });
  }

  async function check() {
    timer = null;
    if (state.phase !== 'watching' || state.paused) return;
    inFlight = new AbortController();
    let reading: Reading<T>;
    try {
      reading = await read(inFlight.signal);
    } catch {
      if (inFlight?.signal.aborted) return;
      reading = { ok: false, code: 'upstream_unreachable', message: 'The dashboard could not be reached' };
    }
    inFlight = null;
    if (state.phase !== 'watching') return;
    const now = clock.now();
    if (!reading.ok) {
      const failures = state.failures + 1;
      set({ lastCheckedAt: now, failures, error: reading.message });
      if (reading.final) return stop('failed');
      return schedule(now + backoffMs(failures, reading.retryAfterS));
    }
    const changes = diffRecords(state.record as Record<string, unknown>, reading.record as Record<string, unknown>);
    set({
      record: reading.record,
      lastCheckedAt: now,
      failures: 0,
      error: null,
      ...(changes.length ? { changes, changedAt: now } : {}),
    });
    // Watched while it waits (pending, on hold, processing: contract section 1); any other status ends it.
    if (statusMeaning(reading.record.status) !== 'waiting') return stop('left-waiting');
    schedule(now + INTERVAL_MS);
  }

  function stop(reason: NonNullable<WatchState<T>['reason']>) {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    inFlight?.abort();
    inFlight = null;
    if (state.phase === 'stopped') return;
    set({ phase: 'stopped', reason, nextAt: null });
  }

  return {
    state: () => state,
    /** The tab was hidden (no reads) or shown again (a read at once if one fell due meanwhile). */
    setHidden(hidden: boolean) {
      if (state.phase !== 'watching' || hidden === state.paused) return;
      if (hidden) {
        if (timer !== null) clock.clearTimeout(timer);
        timer = null;
        inFlight?.abort();
        inFlight = null;
        set({ paused: true, nextAt: null });
      } else {
        set({ paused: false });
        const due = (state.lastCheckedAt ?? startedAt) + INTERVAL_MS;
        schedule(Math.max(clock.now(), due));
      }
    },
    stop: () => stop('by-user'),
    start() {
      schedule(startedAt + INTERVAL_MS);
    },
  };
}
