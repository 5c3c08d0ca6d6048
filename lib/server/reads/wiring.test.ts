import { describe, expect, it } from 'vitest';
import { systemContext } from '../context';
import type { Runtime } from '../runtime';
import { collectionsPage, indexStatus } from './collections';
import { driftReport } from './drift';

/**
 * The request side is handed the runtime (route.ts, a page), it never reaches for one: a read answers from
 * whatever runtime it is given, so a test passes a fake with only the parts that read touches.
 */
const fake = (parts: Partial<Runtime>) => parts as Runtime;

const status = {
  state: 'ready' as const,
  indexed: 3,
  openedById: 0,
  upstreamCount: 3,
  coverage: 1,
  lastFullScanAt: '2026-12-01T00:00:00.000Z',
  lastPollAt: '2026-12-01T00:00:05.000Z',
  asOf: '2026-12-01T00:00:05.000Z',
};

describe('reads receive the runtime', () => {
  it('answers the index status from the runtime it is given', async () => {
    const rt = fake({ index: { status: async () => status } as unknown as Runtime['index'] });
    expect(await indexStatus(rt, systemContext('wiring-test'))).toEqual({
      status: 'success',
      message: 'Index status',
      data: status,
    });
  });

  it('reads a filtered page from the given index', async () => {
    const recorded: unknown[] = [];
    const page = { data: [{ id: 'pay_1' }], count: 1 };
    const rt = fake({
      index: {
        status: async () => status,
        queries: async () => ({ list: async () => page, search: async () => page }),
      } as unknown as Runtime['index'],
      audit: { record: (entry: unknown) => void recorded.push(entry) } as unknown as Runtime['audit'],
    });
    const answer = await collectionsPage(rt, systemContext('wiring-test'), {
      page: 1,
      limit: 20,
      status: ['pending'],
    } as never);
    expect(answer).toMatchObject({ data: [{ id: 'pay_1' }], meta: { count: 1, source: 'index', coverage: 1 } });
    // System work is not audited (audit.ts): the given log is left alone.
    expect(recorded).toEqual([]);
  });

  it('reads the drift report from the given runtime', async () => {
    const rt = fake({
      drift: { report: async () => ({ entries: [], baselineAt: '2026-12-01T00:00:00.000Z' }) } as never,
    });
    expect(await driftReport(rt, systemContext('wiring-test'))).toEqual({
      status: 'success',
      message: 'Schema drift',
      data: [],
      meta: { baselineAt: '2026-12-01T00:00:00.000Z' },
    });
  });
});
