import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeClock } from '@/test/fake-clock';
import { createDatabase, RECONNECT_FAST_FOR_MS, RECONNECT_FIRST_MS, RECONNECT_MS, REOPEN_MS } from './database';

/**
 * The application's database on a fake clock: how long a fault holds it closed. A server that does not
 * answer is asked again every second for the first 30 s of the outage, then every 10 s; an open ends the
 * outage; the statements that failed together hold it once; a disk that cannot be written waits a minute.
 */
const logged: string[] = [];
const log = { warn: () => {}, error: (_: object, msg: string) => void logged.push(msg) };
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the database held closed after a fault', () => {
  it('asks a PostgreSQL that refuses again every second for 30 s, then every 10 s, and not in between', async () => {
    const clock = fakeClock();
    // Port 9 (discard): nothing listens, the connection is refused at once.
    const database = createDatabase({
      target: { kind: 'postgres', url: 'postgres://console@127.0.0.1:9/console', poolMax: 1, ssl: false },
      clock,
      log,
    });
    const waits: number[] = [];
    for (let attempt = 0; attempt < 33; attempt++) {
      await expect(database.open()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      const held = database.failure()!;
      waits.push(held.until - clock.now());
      // Until then the same failure at once, without connecting: it is not counted as another.
      await clock.advance(held.until - clock.now() - 1);
      await expect(database.open()).rejects.toBe(held.error);
      expect(database.failure()!.until).toBe(held.until);
      await clock.advance(1);
      expect(database.failure()).toBeNull();
    }
    const fast = RECONNECT_FAST_FOR_MS / RECONNECT_FIRST_MS;
    expect(waits).toEqual([...Array<number>(fast).fill(1_000), RECONNECT_MS, RECONNECT_MS, RECONNECT_MS]);
    await database.close();
  }, 30_000);

  it('counts an outage from its first fault until it opens again, and holds an unwritable store a minute', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'database-'));
    dirs.push(dir);
    const clock = fakeClock();
    const database = createDatabase({ target: { kind: 'sqlite', path: join(dir, 'index.sqlite') }, clock, log });
    const lost = Object.assign(new Error('writer thread stopped'), { code: 'INDEX_WRITER_STOPPED' });
    await database.open();
    expect(await database.fault(lost)).toBe('unreachable');
    expect(database.failure()!.until - clock.now()).toBe(1_000);
    // Another statement of the same moment fails with it: the same hold, not a longer one, said once.
    await clock.advance(500);
    await database.fault(lost);
    expect(database.failure()!.until - clock.now()).toBe(500);
    expect(logged.filter((msg) => msg.startsWith('database: fault'))).toHaveLength(1);
    // Nothing opened it for 30 s more: a fault then is of the same outage, 30 s old, and waits 10 s.
    await clock.advance(30_500);
    expect(database.failure()).toBeNull();
    await database.fault(lost);
    expect(database.failure()!.until - clock.now()).toBe(RECONNECT_MS);
    await clock.advance(RECONNECT_MS);
    // It opened: the outage is over, and the next one starts again from a second.
    await database.open();
    expect(await database.fault(lost)).toBe('unreachable');
    await expect(database.open()).rejects.toBe(lost);
    expect(database.failure()!.until - clock.now()).toBe(1_000);
    await clock.advance(1_000);
    await database.open();
    expect(await database.fault(Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' }))).toBe('unwritable');
    expect(database.failure()!.until - clock.now()).toBe(REOPEN_MS);
    await database.close();
  });

  it('leaves nothing open when it is closed while an open waits on another process (a busy file is tried for seconds)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'database-'));
    dirs.push(dir);
    const path = join(dir, 'index.sqlite');
    // Another process holds the new file's write lock: the open's migrations wait for it.
    const other = new Database(path);
    other.pragma('journal_mode = WAL');
    other.exec('begin immediate');
    const quiet: string[] = [];
    const database = createDatabase({
      target: { kind: 'sqlite', path },
      clock: fakeClock(),
      log: { warn: () => {}, error: (_: object, msg: string) => void quiet.push(msg) },
    });
    const opening = database.open();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await database.close();
    other.exec('rollback');
    other.close();
    await expect(opening).rejects.toThrow('The database is closed');
    expect(database.reads()).toBeNull();
    await expect(database.available()).resolves.toBeNull();
    await expect(database.readable()).resolves.toBeNull();
    // The file is nobody's now: another process writes it at once.
    const after = new Database(path, { timeout: 0 });
    expect(() => after.exec('begin immediate; create table t (x); commit')).not.toThrow();
    after.close();
    // Closed on purpose: no failure said.
    expect(quiet).toEqual([]);
  }, 30_000);
});
