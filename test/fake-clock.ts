import type { Clock } from '@/lib/server/clock';

/**
 * A clock that moves only when a test says so, for the server's timer-driven parts (the index service,
 * the audit log, the drift report). `advance(ms)` runs every timer due on the way, in time order, and
 * lets the real work each one starts (database reads and writes) run before it goes on.
 */
export type FakeClock = Clock & {
  advance(ms: number): Promise<void>;
};

/** Real time for the work a fired timer starts (SQLite and the event loop's turns), before the next one. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

export function fakeClock(start = Date.parse('2026-11-25T09:00:00.000Z')): FakeClock {
  let now = start;
  let sequence = 0;
  const timers: { at: number; order: number; fn: () => void }[] = [];
  return {
    now: () => now,
    after(ms, fn) {
      const timer = { at: now + Math.max(0, ms), order: sequence++, fn };
      timers.push(timer);
      return () => {
        const i = timers.indexOf(timer);
        if (i >= 0) timers.splice(i, 1);
      };
    },
    async advance(ms) {
      const until = now + ms;
      await settle();
      for (;;) {
        timers.sort((a, b) => a.at - b.at || a.order - b.order);
        const next = timers[0];
        if (!next || next.at > until) break;
        timers.shift();
        now = Math.max(now, next.at);
        next.fn();
        await settle();
      }
      now = until;
    },
  };
}
