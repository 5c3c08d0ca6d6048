import { describe, expect, it, vi } from 'vitest';
import { createMetrics, pageRoute } from './metrics';

describe('page route labels', () => {
  it.each([
    ['/collections', '/collections'],
    ['/collections/pay_abc', '/collections/[id]'],
    ['/collections/anything-typed', '/collections/[id]'],
    ['/providers/prv_x', '/providers/[id]'],
    ['/overview', '/overview'],
    ['/status', '/status'],
    ['/', '/'],
    ['/collections/pay_a/b', 'other'],
    ['/wp-admin.php', 'other'],
    ['/search/ada@example.com', 'other'],
  ])('%s → %s', (path, route) => {
    expect(pageRoute(path)).toBe(route);
  });
});

describe('people waiting on an answer', () => {
  it('lets background work go on at once when nobody is waiting', async () => {
    const metrics = createMetrics({ enabled: false });
    let resumed = false;
    await metrics.idle(1_000).then(() => (resumed = true));
    expect(resumed).toBe(true);
  });

  it('holds background work until the last request in flight is answered', async () => {
    vi.useFakeTimers();
    try {
      const metrics = createMetrics({ enabled: false });
      metrics.requestStarted();
      metrics.requestStarted();
      let resumed = false;
      void metrics.idle(1_000).then(() => (resumed = true));
      metrics.requestEnded();
      await vi.advanceTimersByTimeAsync(10);
      expect(resumed).toBe(false);
      expect(metrics.answering()).toBe(1);
      metrics.requestEnded();
      await vi.advanceTimersByTimeAsync(0);
      expect(resumed).toBe(true);
      expect(metrics.answering()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never holds it longer than asked while people keep the dashboard busy', async () => {
    vi.useFakeTimers();
    try {
      const metrics = createMetrics({ enabled: false });
      metrics.requestStarted();
      let resumed = 0;
      void metrics.idle(25).then(() => resumed++);
      void metrics.idle(50).then(() => resumed++);
      await vi.advanceTimersByTimeAsync(24);
      expect(resumed).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(resumed).toBe(1);
      // The one that gave up is gone: the request's end resumes only the other, once.
      metrics.requestEnded();
      await vi.advanceTimersByTimeAsync(0);
      expect(resumed).toBe(2);
      await vi.advanceTimersByTimeAsync(100);
      expect(resumed).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts no request below zero', () => {
    const metrics = createMetrics({ enabled: false });
    metrics.requestEnded();
    metrics.requestStarted();
    expect(metrics.answering()).toBe(1);
  });
});
