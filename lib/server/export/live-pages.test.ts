import { describe, expect, it } from 'vitest';
import { collectionSchema, type Collection } from '@/lib/api/schemas';
import { sampleCollection } from '@/test/samples';
import { livePages, type LivePage, type LivePagesDeps } from './live-pages';

/** A fake clock: sleeping moves time on at once, and every wait is recorded. */
function clock() {
  let now = 0;
  const waits: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      waits.push(ms);
      now += ms;
    },
    waits,
  };
}

const records = (from: number, n: number): Collection[] =>
  Array.from({ length: n }, (_, i) => collectionSchema.parse(sampleCollection({ id: `pay_${from + i}` })));

/** An upstream of `total` records, 100 a page, with scripted failures per request number. */
function upstream(total: number, failures: Record<number, { code: string; retryAfter?: number }> = {}) {
  const requests: number[] = [];
  return {
    requests,
    read: async (page: number): Promise<LivePage> => {
      requests.push(page);
      const failure = failures[requests.length];
      if (failure) throw Object.assign(new Error(failure.code), failure);
      const start = (page - 1) * 100;
      return {
        data: records(start, Math.max(0, Math.min(100, total - start))),
        meta: { count: total, next: start + 100 < total ? page + 1 : null },
      };
    },
  };
}

async function collect(deps: Partial<LivePagesDeps> & Pick<LivePagesDeps, 'read'>) {
  const c = clock();
  const out: Collection[] = [];
  for await (const batch of livePages({
    rps: 5,
    max: 10_000,
    signal: new AbortController().signal,
    now: c.now,
    sleep: c.sleep,
    ...deps,
  }))
    out.push(...batch.records);
  return { out, waits: c.waits };
}

describe('live export pages', () => {
  it('reads every page once, at the sync pace', async () => {
    const up = upstream(250);
    const { out, waits } = await collect({ read: up.read });
    expect(out).toHaveLength(250);
    expect(up.requests).toEqual([1, 2, 3]);
    expect(waits).toEqual([200, 200]);
  });

  it('waits out a 429 for as long as the upstream asks, then goes on', async () => {
    const up = upstream(250, { 2: { code: 'rate_limited', retryAfter: 7 } });
    const { out, waits } = await collect({ read: up.read });
    expect(out).toHaveLength(250);
    expect(up.requests).toEqual([1, 2, 2, 3]);
    expect(waits).toContain(7_000);
  });

  it('tries a passing failure three more times, then fails rather than stop short', async () => {
    const flaky = upstream(250, { 2: { code: 'upstream_unavailable' } });
    expect((await collect({ read: flaky.read })).out).toHaveLength(250);
    const down = upstream(250, {
      2: { code: 'upstream_unavailable' },
      3: { code: 'upstream_unavailable' },
      4: { code: 'upstream_unavailable' },
      5: { code: 'upstream_unavailable' },
    });
    await expect(collect({ read: down.read })).rejects.toMatchObject({ code: 'upstream_unavailable' });
    const refused = upstream(250, { 2: { code: 'upstream_auth' } });
    await expect(collect({ read: refused.read })).rejects.toMatchObject({ code: 'upstream_auth' });
  });

  it('stops at the cap', async () => {
    const up = upstream(1_000);
    const { out } = await collect({ read: up.read, max: 150 });
    expect(out).toHaveLength(150);
    expect(up.requests).toEqual([1, 2]);
  });

  it('stops requesting as soon as it is aborted', async () => {
    const up = upstream(1_000);
    const controller = new AbortController();
    const c = clock();
    const pages = livePages({
      read: up.read,
      rps: 5,
      max: 10_000,
      signal: controller.signal,
      now: c.now,
      sleep: c.sleep,
    });
    await pages.next();
    controller.abort();
    await expect(pages.next()).rejects.toThrow();
    expect(up.requests).toEqual([1]);
  });
});
