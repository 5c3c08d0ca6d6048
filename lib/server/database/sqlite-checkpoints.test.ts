import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointThread } from './sqlite-checkpoints';

const until = async (ok: () => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('not within the time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("the index's WAL checkpoints, on a thread of their own", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'checkpoints-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("copies the writer's pages into the file, so the writer's next transaction starts the WAL again", async () => {
    const path = join(dir, 'index.sqlite');
    const writer = new Database(path);
    writer.pragma('journal_mode = WAL');
    writer.pragma('synchronous = OFF');
    // Far above what this test writes: only the thread checkpoints here.
    writer.pragma('wal_autocheckpoint = 25000');
    writer.exec('create table t (id integer primary key, body text not null)');
    const insert = writer.prepare('insert into t (body) values (?)');
    writer.transaction(() => {
      for (let i = 0; i < 2_000; i++) insert.run('x'.repeat(1_000));
    })();
    const thread = checkpointThread(path, { everyMs: 50 });
    try {
      // ~2,000 rows of 1 kB: some 500 pages of 4 kB, all in the WAL until copied.
      await until(() => thread.stats().frames >= 400);
      expect(thread.stats()).toMatchObject({ running: true });
      insert.run('one more');
      // The writer's checkpoint, asked now, finds a WAL of that one transaction only (a page or two).
      const [after] = writer.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
      expect(after!.log).toBeLessThan(10);
      // Nothing was lost on the way.
      expect((writer.prepare('select count(*) as n from t').get() as { n: number }).n).toBe(2_001);
    } finally {
      await thread.close();
      writer.close();
    }
  });

  it('says so when it cannot open the file (the writer then checkpoints as before)', async () => {
    const failures: string[] = [];
    const thread = checkpointThread(join(dir, 'missing.sqlite'), { onFailure: (why) => failures.push(why) });
    try {
      await until(() => failures.length > 0);
      expect(failures[0]).toMatch(/unable to open|does not exist|missing/i);
      expect(thread.stats().running).toBe(false);
    } finally {
      await thread.close();
    }
  });
});
