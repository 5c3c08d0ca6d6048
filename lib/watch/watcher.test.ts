import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backoffMs,
  createWatcher,
  diffRecords,
  INTERVAL_MS,
  MAX_WATCH_MS,
  type Reading,
  type WatchState,
} from './watcher';

type Rec = { id: string; status: string; updatedAt: string };
const rec = (status = 'pending', updatedAt = 't0'): Rec => ({ id: 'pay_1', status, updatedAt });

const clock = {
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
  clearTimeout: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

function setup(answers: Array<Reading<Rec> | (() => Reading<Rec>)>) {
  const reads: number[] = [];
  const states: WatchState<Rec>[] = [];
  const start = Date.now();
  const watcher = createWatcher<Rec>({
    record: rec(),
    clock,
    read: async () => {
      reads.push(Date.now() - start);
      const next = answers.length > 1 ? answers.shift()! : answers[0]!;
      return typeof next === 'function' ? next() : next;
    },
    onState: (s) => states.push(s),
  });
  watcher.start();
  return { watcher, reads, states, last: () => states.at(-1)! };
}

const ok = (r: Rec): Reading<Rec> => ({ ok: true, record: r });
const fail = (code: string, retryAfterS?: number): Reading<Rec> => ({ ok: false, code, message: code, retryAfterS });

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
});
afterEach(() => vi.useRealTimers());

describe('the watcher', () => {
  it('reads every 10 s while nothing changes', async () => {
    const { reads, last } = setup([ok(rec())]);
    await vi.advanceTimersByTimeAsync(35_000);
    expect(reads).toEqual([10_000, 20_000, 30_000]);
    expect(last().phase).toBe('watching');
    expect(last().changes).toEqual([]);
    expect(last().lastCheckedAt).toBe(Date.parse('2026-11-23T12:00:30Z'));
  });

  it('keeps watching from one waiting status to another (pending → on hold)', async () => {
    const { last } = setup([ok(rec('on_hold', 't1')), ok(rec('completed', 't2'))]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(last()).toMatchObject({ phase: 'watching', record: rec('on_hold', 't1') });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(last()).toMatchObject({ phase: 'stopped', reason: 'left-waiting' });
  });

  it('shows what changed and stops when the status leaves pending', async () => {
    const { reads, last } = setup([ok(rec('pending', 't1')), ok(rec('completed', 't2'))]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(last().changes).toEqual([{ field: 'updatedAt', before: 't0', after: 't1' }]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(last()).toMatchObject({ phase: 'stopped', reason: 'left-waiting', record: rec('completed', 't2') });
    expect(last().changes).toEqual([
      { field: 'status', before: 'pending', after: 'completed' },
      { field: 'updatedAt', before: 't1', after: 't2' },
    ]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reads).toHaveLength(2);
  });

  it('backs off on errors (20 s, 40 s, …) and honours Retry-After on a 429, then goes back to 10 s', async () => {
    const { reads, last } = setup([
      fail('upstream_error'),
      fail('upstream_error'),
      fail('rate_limited', 90),
      ok(rec()),
    ]);
    await vi.advanceTimersByTimeAsync(10_000 + 20_000 + 40_000 + 90_000 + 10_000);
    expect(reads).toEqual([10_000, 30_000, 70_000, 160_000, 170_000]);
    expect(last()).toMatchObject({ failures: 0, error: null, phase: 'watching' });
  });

  it('caps the back-off at 5 minutes', () => {
    expect(backoffMs(1)).toBe(20_000);
    expect(backoffMs(10)).toBe(300_000);
    expect(backoffMs(1, 45)).toBe(45_000);
  });

  it('pauses while the tab is hidden and reads at once when it is shown, if a read fell due', async () => {
    const { watcher, reads, last } = setup([ok(rec())]);
    await vi.advanceTimersByTimeAsync(12_000);
    watcher.setHidden(true);
    expect(last()).toMatchObject({ paused: true, nextAt: null });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(reads).toEqual([10_000]);
    watcher.setHidden(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toEqual([10_000, 132_000]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reads).toEqual([10_000, 132_000, 142_000]);
  });

  it('stops after 30 minutes', async () => {
    const { reads, last } = setup([ok(rec())]);
    await vi.advanceTimersByTimeAsync(MAX_WATCH_MS + 60_000);
    expect(last()).toMatchObject({ phase: 'stopped', reason: 'time-limit' });
    expect(reads.at(-1)).toBeLessThan(MAX_WATCH_MS);
    expect(reads).toHaveLength(MAX_WATCH_MS / INTERVAL_MS - 1);
  });

  it('stops when asked, with nothing more read', async () => {
    const { watcher, reads, last } = setup([ok(rec())]);
    await vi.advanceTimersByTimeAsync(10_000);
    watcher.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reads).toEqual([10_000]);
    expect(last()).toMatchObject({ phase: 'stopped', reason: 'by-user' });
  });

  it('stops on a failure that will not pass (the record is gone)', async () => {
    const { last } = setup([{ ok: false, code: 'not_found', message: 'Collection not found', final: true }]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(last()).toMatchObject({ phase: 'stopped', reason: 'failed', error: 'Collection not found' });
  });

  it('counts a thrown read as an error, not a crash', async () => {
    const { last } = setup([
      () => {
        throw new Error('boom');
      },
    ]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(last()).toMatchObject({ phase: 'watching', failures: 1, error: 'The dashboard could not be reached' });
  });
});

describe('diffRecords', () => {
  it('names every top-level field that changed, objects compared by value', () => {
    expect(
      diffRecords(
        { status: 'pending', amount: { value: 1, currency: 'NGN' }, completedAt: null, extra: 1 },
        { status: 'pending', amount: { value: 2, currency: 'NGN' }, completedAt: '2026-01-01', fresh: true },
      ),
    ).toEqual([
      { field: 'amount', before: '{"value":1,"currency":"NGN"}', after: '{"value":2,"currency":"NGN"}' },
      { field: 'completedAt', before: '—', after: '2026-01-01' },
      { field: 'extra', before: '1', after: '—' },
      { field: 'fresh', before: '—', after: 'true' },
    ]);
  });
});
