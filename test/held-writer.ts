import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Transaction } from 'kysely';
import { createDatabase } from '@/lib/server/database/database';
import type { AppDb } from '@/lib/server/database/connect';
import type { AppDatabase } from '@/lib/server/database/schema';
import { fakeClock } from './fake-clock';

/**
 * The application's SQLite database as the runtime opens it (database.ts: the writer on its thread, the reads
 * threads beside it), in a directory of its own. `close()` closes it and removes the directory.
 */
export async function runtimeSqlite() {
  const dir = mkdtempSync(join(tmpdir(), 'held-writer-'));
  const database = createDatabase({
    target: { kind: 'sqlite', path: join(dir, 'app.sqlite') },
    clock: fakeClock(),
    log: { warn: () => {}, error: () => {} },
  });
  const { db } = await database.open().catch(async (error: unknown) => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    database,
    db,
    async close() {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A transaction that holds the writer's one connection (as a sync's does, for hundreds of milliseconds in a
 * first scan) until `release()`: it has written (`write`) and waits. Anything sent through the writer meanwhile
 * waits for it; a read that answers meanwhile did not go through the writer.
 */
export async function holdTheWriter(db: AppDb, write: (trx: Transaction<AppDatabase>) => Promise<unknown>) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const done = db.transaction().execute(async (trx) => {
    await write(trx);
    held();
    await released;
  });
  await Promise.race([holding, done]);
  return {
    async release() {
      release();
      await done;
    },
  };
}
