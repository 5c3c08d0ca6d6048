import 'server-only';

/**
 * Time as the server's background work sees it: the runtime hands the real one
 * to every timer-driven part (index service, audit log, drift report), and tests
 * hand a fake one that they move by hand (test/fake-clock.ts).
 */
export type Clock = {
  now(): number;
  /** Runs `fn` once after `ms`; never keeps the process alive. Returns a function that cancels it. */
  after(ms: number, fn: () => void): () => void;
};

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};
