import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Collection } from '@/lib/api/schemas';
import { fakeClock, type FakeClock } from '@/test/fake-clock';
import { sampleCollection } from '@/test/samples';
import type { RequestContext } from '../context';
import { createDatabase } from '../database/database';
import { createIndexService, type IndexService } from './service';
import type { ListPage } from './write/sync';

/**
 * Counts that agree (issue 75): the status's "N of M" is one reading, taken at `countedAt` on the service's
 * clock, and never has more indexed than listed, while the upstream's list grows at its head and a person's
 * list pages are written through beside the sync's polls. On a fake clock, so "as of" and the 2 s the status
 * is kept are exact.
 */
const SECRET = 'c'.repeat(40);
const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** The upstream's list, newest first; `grow` adds a collection at its head, as the sandbox's activity does. */
function growingList(start: number) {
  let made = 0;
  const record = () => {
    const at = new Date(Date.UTC(2026, 10, 1, 0, made)).toISOString();
    const id = `pay_grow${String(made++).padStart(4, '0')}`;
    return sampleCollection({ id, reference: `INV-G-${made}`, createdAt: at, updatedAt: at }) as unknown as Collection;
  };
  const records: Collection[] = Array.from({ length: start }, record).reverse();
  return {
    records,
    grow: () => void records.unshift(record()),
    readPage: async (page: number, limit: number): Promise<ListPage> => ({
      data: records.slice((page - 1) * limit, page * limit),
      meta: { count: records.length, next: page * limit < records.length ? page + 1 : null },
    }),
  };
}

/** A person reading the list (the sync's own reads are a system context's, which write-through skips). */
const person = {
  requestId: 'req_counts',
  principal: { kind: 'user', via: 'open', name: 'open access' },
} as unknown as RequestContext;

let dir: string;
let stop: (() => Promise<void>) | null = null;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'index-counts-'));
});
afterEach(async () => {
  await stop?.();
  stop = null;
  rmSync(dir, { recursive: true, force: true });
});

function make(clock: FakeClock, readPage: (page: number, limit: number) => Promise<ListPage>): IndexService {
  const path = join(dir, 'index.sqlite');
  const database = createDatabase({ target: { kind: 'sqlite', path }, clock, log: silent });
  const service = createIndexService({
    index: {
      enabled: true,
      secret: SECRET,
      path,
      syncRps: 10,
      pollMs: 1_000,
      account: null,
      accountRetentionDays: 30,
      historyRetentionDays: 365,
    },
    sandbox: false,
    upstream: { baseUrl: 'https://upstream.test', key: 'sk_test_counts' },
    database,
    clock,
    log: silent,
    readPage,
  });
  stop = () => service.stop().then(() => database.close());
  return service;
}

async function readyOn(clock: FakeClock, service: IndexService, indexed: number) {
  for (let spent = 0; spent <= 60_000; spent += 200) {
    const status = await service.status();
    if (status.state === 'ready' && status.indexed === indexed) return;
    await clock.advance(200);
  }
  throw new Error('not ready within 60 s of fake time');
}

describe('the status counts on a fake clock', () => {
  it('are one reading as of `countedAt`, kept 2 s, and never more indexed than listed while the list grows', async () => {
    const clock = fakeClock();
    const list = growingList(30);
    const service = make(clock, list.readPage);
    await readyOn(clock, service, 30);

    // A reading is taken at the clock's time and kept, figures and time together, for 2 s.
    await clock.advance(2_000);
    const first = await service.status();
    expect(first.countedAt).toBe(new Date(clock.now()).toISOString());
    expect(first).toMatchObject({ indexed: 30, upstreamCount: 30, coverage: 1 });
    list.grow();
    // Landed before the clock moves: the write is real work on a real thread, the clock is not.
    await service.writeThrough((await list.readPage(1, 100)).data, person, list.records.length);
    await clock.advance(1_500);
    expect(await service.status()).toEqual(first);
    await clock.advance(600);
    const next = await service.status();
    expect(next.countedAt).toBe(new Date(clock.now()).toISOString());
    expect(next).toMatchObject({ indexed: 31, upstreamCount: 31 });

    // The list grows at its head; people's list pages and the polls write it; no reading has N > M.
    const readings: { indexed: number; of: number | null; at: string | null }[] = [];
    for (let round = 0; round < 20; round++) {
      list.grow();
      if (round % 2) await service.writeThrough((await list.readPage(1, 100)).data, person, list.records.length);
      for (let step = 0; step < 3; step++) {
        await clock.advance(700);
        const { indexed, upstreamCount, countedAt } = await service.status();
        readings.push({ indexed, of: upstreamCount, at: countedAt });
      }
    }
    expect(readings.filter((r) => r.of === null || r.indexed > r.of)).toEqual([]);
    // Each as of a time on the clock, never ahead of it, never going back.
    const times = readings.map((r) => Date.parse(r.at!));
    expect(times.every((t, i) => t <= clock.now() && (i === 0 || t >= times[i - 1]!))).toBe(true);
    // The polls catch up: the last readings hold the whole list.
    await readyOn(clock, service, list.records.length);
    await clock.advance(2_100);
    const whole = list.records.length;
    expect(await service.status()).toMatchObject({ indexed: whole, upstreamCount: whole, coverage: 1 });
  });
});
