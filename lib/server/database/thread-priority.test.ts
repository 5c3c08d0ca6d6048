import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loweringShows, startedThreadNices, threadNices } from '@/test/thread-nices';
import { createWriterThread } from './sqlite-writer';

// Linux names a thread by its own id (elsewhere nothing to read); a process at nice 10 or more shows nothing.
describe.runIf(loweringShows())("the index writer's thread behind the request thread for the CPU", () => {
  const dir = mkdtempSync(join(tmpdir(), 'thread-priority-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("runs the index writer's thread at nice 10, the request thread as it was", async () => {
    const own = threadNices().get(String(process.pid));
    const before = threadNices();
    const writer = createWriterThread(join(dir, 'writer.sqlite'), ['journal_mode = WAL']);
    try {
      await writer.run('create table t (x)', []);
      expect(startedThreadNices(before)).toContain(10);
      expect(threadNices().get(String(process.pid))).toBe(own);
    } finally {
      await writer.close();
    }
  });
});
