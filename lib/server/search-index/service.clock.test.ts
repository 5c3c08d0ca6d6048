import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaults, filterSchema } from '@/lib/api/list-state';
import type { Collection } from '@/lib/api/schemas';
import { fakeClock, type FakeClock } from '@/test/fake-clock';
import { sampleCollection } from '@/test/samples';
import { createDatabase } from '../database/database';
import { GIVE_WAY_MS } from './service-runner';
import { createIndexService, type IndexService } from './service';
import type { ListPage } from './write/sync';

/**
 * The index service on a fake clock and a fake upstream, with a real SQLite file: what it does when its
 * file is deleted, when its folder cannot be written (and when it is retried), when the secret changes,
 * and how it hands the sync over while a step is in flight. The clock moves only when the test says.
 */
const SECRET = 's'.repeat(40);
/** `n` collections a minute apart, their ids and references told apart by `tag`. */
const collections = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => {
    const at = new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString();
    return sampleCollection({
      id: `pay_${tag}${String(i).padStart(4, '0')}`,
      reference: `INV-${tag[0]!.toUpperCase()}-${i}`,
      createdAt: at,
      updatedAt: at,
    }) as unknown as Collection;
  });
const RECORDS = collections(30, 'clock');

const upstreamPage = async (page: number, limit: number): Promise<ListPage> => {
  const data = RECORDS.slice((page - 1) * limit, page * limit);
  return { data, meta: { count: RECORDS.length, next: page * limit < RECORDS.length ? page + 1 : null } };
};

const lines: string[] = [];
const log = {
  info: (_: object, msg: string) => void lines.push(msg),
  warn: (_: object, msg: string) => void lines.push(msg),
  error: (_: object | string, msg?: string) => void lines.push(msg ?? String(_)),
};

type Made = { service: IndexService; close(): Promise<void> };
const made: Made[] = [];

function make(
  path: string,
  clock: FakeClock,
  {
    secret = SECRET,
    readPage = upstreamPage,
    pollMs = 2_000,
    usersActive,
  }: { secret?: string; readPage?: typeof upstreamPage; pollMs?: number; usersActive?: () => boolean } = {},
): IndexService {
  const database = createDatabase({ target: { kind: 'sqlite', path }, clock, log });
  const service = createIndexService({
    index: {
      enabled: true,
      secret,
      path,
      syncRps: 10,
      pollMs,
      account: null,
      accountRetentionDays: 30,
      historyRetentionDays: 365,
    },
    sandbox: false,
    upstream: { baseUrl: 'https://upstream.test', key: 'sk_test_clock' },
    database,
    clock,
    log,
    readPage,
    usersActive,
  });
  made.push({ service, close: () => service.stop().then(() => database.close()) });
  return service;
}

/** Moves the clock `stepMs` (200 ms) at a time until `done` holds (at most `limitMs` of fake time). */
async function runUntil(clock: FakeClock, done: () => Promise<boolean> | boolean, limitMs = 120_000, stepMs = 200) {
  for (let spent = 0; spent <= limitMs; spent += stepMs) {
    if (await done()) return;
    await clock.advance(stepMs);
  }
  throw new Error(`not done within ${limitMs} ms of fake time`);
}

const ready = (service: IndexService) => async () => {
  const status = await service.status();
  return status.state === 'ready' && status.indexed === RECORDS.length;
};

const leaseOwners = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('select owner from sync_lease').all();
  } finally {
    db.close();
  }
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'index-clock-'));
  lines.length = 0;
});
afterEach(async () => {
  for (const m of made.splice(0)) await m.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the index service on a fake clock', () => {
  it('gives way to people: a rescan page waits 250 ms while someone uses the dashboard, the first scan keeps its pace', async () => {
    const clock = fakeClock();
    // Four pages of 100: the scans read pages 2 and 3, the polls only the head (1) and the tail (4).
    const many = collections(350, 'giveway');
    const reads: { page: number; at: number }[] = [];
    const readPage = async (page: number, limit: number): Promise<ListPage> => {
      reads.push({ page, at: clock.now() });
      const data = many.slice((page - 1) * limit, page * limit);
      return { data, meta: { count: many.length, next: page * limit < many.length ? page + 1 : null } };
    };
    let active = true;
    // Polls every 10 s: none falls between a scan's pages 2 and 3 (a scan is 4 pages, 100-250 ms apart).
    const service = make(join(dir, 'index.sqlite'), clock, { readPage, pollMs: 10_000, usersActive: () => active });
    service.start();
    /** The time between a scan's reads of pages 2 and 3, of the next scan to read page 3. */
    const nextScanGap = async () => {
      reads.length = 0;
      // 10 ms at a time: a step's real work (a page written on the writer's thread) may end after the clock
      // moved on a few steps: a scan at its pace (100 ms) was measured 220 ms apart once in CI.
      await runUntil(clock, () => reads.some((r) => r.page === 3), 60_000, 10);
      const at = (page: number) => reads.find((r) => r.page === page)!.at;
      return at(3) - at(2);
    };

    // The index opens and polls the head and the tail (page 4) first.
    await runUntil(clock, () => reads.some((r) => r.page === 4));
    // The first scan, people active: its pace (10 pages a second), never the wait for people.
    expect(await nextScanGap()).toBeLessThan(GIVE_WAY_MS);
    await runUntil(clock, async () => {
      const status = await service.status();
      return status.state === 'ready' && status.indexed === many.length;
    });
    // A rescan while people use the dashboard: each page waits for them.
    expect(await nextScanGap()).toBeGreaterThanOrEqual(250);
    // Nobody there: the rescan's own pace again.
    active = false;
    expect(await nextScanGap()).toBeLessThan(GIVE_WAY_MS);
  });

  it('rebuilds a file deleted under it at its next health check, and is ready again', async () => {
    const clock = fakeClock();
    const path = join(dir, 'index.sqlite');
    const service = make(path, clock);
    await runUntil(clock, ready(service));

    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    await runUntil(clock, () => existsSync(path));
    expect(lines).toContain('database: reopening');
    await runUntil(clock, ready(service));
    expect((await service.status()).indexed).toBe(RECORDS.length);
  });

  it('stays off with the reason while its folder cannot be written, and opens at the retry a minute later', async () => {
    const clock = fakeClock();
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, 'x');
    const service = make(join(blocker, 'index.sqlite'), clock);
    const status = await service.status();
    expect(status.state).toBe('off');
    expect(status.reason).toMatch(/INDEX_PATH/);
    await expect(service.queries()).rejects.toMatchObject({ code: 'index_unavailable' });
    const failedAt = clock.now();

    // Fixed by the operator: still off until the retry time, then open and synced.
    rmSync(blocker);
    mkdirSync(blocker);
    await clock.advance(30_000);
    expect((await service.status()).state).toBe('off');
    await runUntil(clock, ready(service));
    expect(clock.now() - failedAt).toBeGreaterThanOrEqual(60_000);
  });

  it('empties and rebuilds an index written with another secret', async () => {
    const clock = fakeClock();
    const path = join(dir, 'index.sqlite');
    const first = make(path, clock);
    await runUntil(clock, ready(first));
    await first.stop();

    const second = make(path, clock, { secret: 't'.repeat(40) });
    await runUntil(clock, ready(second));
    expect(lines).toContain('index: INDEX_SECRET changed since the index was written; rebuilding it');
    const hits = await (await second.queries()).search('INV-C-7', defaults(filterSchema), 1, 10);
    expect(hits.data.map((h) => h.id)).toEqual(['pay_clock0007']);
  });

  it('hands the sync over only after the step in flight ended, and another replica takes it at its next ask', async () => {
    const clock = fakeClock();
    const path = join(dir, 'shared.sqlite');
    let hold: Promise<void> | null = null;
    let release = () => {};
    let waiting = false;
    const paused = async (page: number, limit: number) => {
      if (hold) {
        waiting = true;
        await hold;
      }
      return upstreamPage(page, limit);
    };
    const leader = make(path, clock, { readPage: paused });
    await runUntil(clock, ready(leader));
    const other = make(path, clock);
    other.start();
    // Opened (its writer's thread started, in real time) and asked for the lease.
    await runUntil(clock, () => other.whereAndWho().syncing !== null);
    expect(leader.whereAndWho().syncing).toBe(true);
    expect(other.whereAndWho().syncing).toBe(false);

    // The leader's next poll hangs upstream past its lease's renewal time.
    hold = new Promise<void>((resolve) => (release = resolve));
    await runUntil(clock, () => waiting);
    await clock.advance(6_000);
    let handedOver = false;
    const handOver = leader.handOver().then(() => void (handedOver = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handedOver).toBe(false);
    hold = null;
    release();
    await handOver;
    // The step that outlived its renewal time renewed the lease as it finished; the hand-over then gave it up.
    expect(leaseOwners(path)).toEqual([]);
    expect(leader.whereAndWho().syncing).toBe(false);
    await runUntil(clock, () => other.whereAndWho().syncing === true, 10_000);
  });
});
