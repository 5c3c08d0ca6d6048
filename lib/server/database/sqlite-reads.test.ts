import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDatabase } from './schema';
import { closedUnder } from './connect';
import { firstInLine, READ_TIMEOUT_CODE, READS_CLOSED_CODE, readStats, sqliteReads } from './sqlite-reads';

/** A statement that keeps SQLite busy for a while: counting up to `n` in a recursive CTE. */
const counting = (n: number) =>
  sql<{
    n: number;
  }>`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${n}) select count(*) as n from c`;

describe("the index's SQLite reads, on threads of their own", () => {
  let dir: string;
  let path: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'reads-'));
    path = join(dir, 'index.sqlite');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.exec(`create table index_meta (key text primary key, value text not null)`);
    db.prepare('insert into index_meta values (?, ?)').run('key_check', 'abc');
    db.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers what the file holds, with parameters, and refuses to write', async () => {
    const reads = sqliteReads(path);
    try {
      const rows = await reads.selectFrom('index_meta').select('value').where('key', '=', 'key_check').execute();
      expect(rows).toEqual([{ value: 'abc' }]);
      await expect(reads.insertInto('index_meta').values({ key: 'x', value: 'y' }).execute()).rejects.toThrow(
        /only reads|readonly/i,
      );
    } finally {
      await reads.destroy();
    }
  });

  it('leaves the event loop free while a statement runs: a timer set after it fires before it ends', async () => {
    const reads = sqliteReads(path);
    try {
      const order: string[] = [];
      const slow = counting(3_000_000)
        .execute(reads)
        .then((r) => order.push(`counted ${r.rows[0]!.n}`));
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push('timer');
      await slow;
      expect(order).toEqual(['timer', 'counted 3000000']);
    } finally {
      await reads.destroy();
    }
  });

  it('counts the reads it started, what waits for a thread now, and how long they waited', async () => {
    const reads = sqliteReads(path, { threads: 1 });
    try {
      await reads.selectFrom('index_meta').select('key').execute();
      const before = readStats(reads)!;
      expect(before).toMatchObject({ started: 1, waiting: 0 });
      // One thread: the second read waits for the first.
      const first = counting(3_000_000).execute(reads);
      const second = reads.selectFrom('index_meta').select('key').execute();
      await new Promise((resolve) => setImmediate(resolve)); // both sent (Kysely compiles on a later turn)
      expect(readStats(reads)!.waiting).toBe(1);
      await Promise.all([first, second]);
      const after = readStats(reads)!;
      expect(after).toMatchObject({ started: 3, waiting: 0 });
      expect(after.waitedMs).toBeGreaterThan(before.waitedMs);
    } finally {
      await reads.destroy();
    }
  });

  it('sends a first-in-line read ahead of the reads waiting, after the one running, and closes nothing of the pool', async () => {
    // The running count's bound far past its time on a slow machine: the order is what is tested.
    const reads = sqliteReads(path, { threads: 1, timeoutMs: 60_000 });
    const first = firstInLine(reads);
    try {
      expect(firstInLine(reads)).toBe(first);
      const order: string[] = [];
      const read = (name: string, db: typeof reads, n: number) =>
        counting(n)
          .execute(db)
          .then(() => void order.push(name));
      await reads.selectFrom('index_meta').select('key').execute(); // the thread started and ready
      const running = read('running', reads, 2_000_000);
      await new Promise((resolve) => setImmediate(resolve)); // sent: the thread has it
      const waiting = [read('search 1', reads, 200_000), read('search 2', reads, 200_000)];
      const mine = [read('mine 1', first, 10), read('mine 2', first, 10)];
      await Promise.all([running, ...waiting, ...mine]);
      expect(order).toEqual(['running', 'mine 1', 'mine 2', 'search 1', 'search 2']);
      await first.destroy();
      expect(await reads.selectFrom('index_meta').select('value').execute()).toEqual([{ value: 'abc' }]);
      // Destroyed, it is forgotten: the next one asked for is a new one, and reads.
      const again = firstInLine(reads);
      expect(again).not.toBe(first);
      expect(await again.selectFrom('index_meta').select('value').execute()).toEqual([{ value: 'abc' }]);
    } finally {
      await reads.destroy();
    }
  });

  it('refuses a read after it was closed with INDEX_READS_CLOSED, which a read under way takes for a reopen', async () => {
    const reads = sqliteReads(path);
    await reads.selectFrom('index_meta').select('value').execute(); // opened (Kysely closes only what it opened)
    await reads.destroy();
    const refused = await firstInLine(reads)
      .selectFrom('index_meta')
      .select('value')
      .execute()
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: READS_CLOSED_CODE });
    expect(closedUnder(refused)).toBe(true);
  });

  it('answers any other Kysely as it is (PostgreSQL’s reads pool has connections enough)', () => {
    const other = new Kysely<AppDatabase>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    expect(firstInLine(other)).toBe(other);
    void other.destroy();
  });

  it('ends a statement past its bound with INDEX_READ_TIMEOUT, and the next read is answered', async () => {
    const reads = sqliteReads(path, { threads: 1, timeoutMs: 200 });
    try {
      const cut = await counting(1_000_000_000)
        .execute(reads)
        .then(
          () => null,
          (error: unknown) => error as { code?: string },
        );
      expect(cut?.code).toBe(READ_TIMEOUT_CODE);
      const rows = await reads.selectFrom('index_meta').select('key').execute();
      expect(rows).toEqual([{ key: 'key_check' }]);
    } finally {
      await reads.destroy();
    }
  });

  it('fails a read at once, saying why, while its file cannot be opened, and answers once it can', async () => {
    const later = join(dir, 'not-yet.sqlite');
    const reads = sqliteReads(later, { threads: 1, timeoutMs: 200 });
    try {
      await expect(reads.selectFrom('index_meta').select('key').execute()).rejects.toThrow(/unable to open|not-yet/i);
      const db = new Database(later);
      db.exec(`create table index_meta (key text primary key, value text not null)`);
      db.close();
      expect(await reads.selectFrom('index_meta').select('key').execute()).toEqual([]);
    } finally {
      await reads.destroy();
    }
  });
});
