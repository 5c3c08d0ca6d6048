import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, storeFault } from './connect';
import { sendAhead } from './send-ahead';
import { createWriterThread, sqliteWriter, WRITER_CLOSED_CODE } from './sqlite-writer';

const PRAGMAS = ['journal_mode = WAL', 'busy_timeout = 5000'];

describe("the application's SQLite writer, on a thread of its own", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'writer-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const fresh = async (name: string) => {
    const db = sqliteWriter(join(dir, name), PRAGMAS);
    await sql`create table index_meta (key text primary key, value text not null)`.execute(db);
    return db;
  };

  it('runs statements in order, commits a transaction, and rolls back one that failed with SQLite’s code', async () => {
    const db = await fresh('order.sqlite');
    try {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('index_meta').values({ key: 'a', value: '1' }).execute();
        await trx.updateTable('index_meta').set({ value: '2' }).where('key', '=', 'a').execute();
      });
      const failed = await db
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('index_meta').values({ key: 'b', value: '1' }).execute();
          await trx.insertInto('index_meta').values({ key: 'a', value: 'again' }).execute();
        })
        .catch((error: unknown) => error as { code?: string; message?: string });
      expect(failed?.code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
      expect(await db.selectFrom('index_meta').selectAll().orderBy('key').execute()).toEqual([
        { key: 'a', value: '2' },
      ]);
      const { numInsertedOrUpdatedRows } = await db
        .insertInto('index_meta')
        .values([
          { key: 'c', value: '1' },
          { key: 'd', value: '1' },
        ])
        .executeTakeFirstOrThrow();
      expect(numInsertedOrUpdatedRows).toBe(2n);
    } finally {
      await db.destroy();
    }
  });

  it('sends writes ahead inside a transaction: in order, and one that fails rolls the whole transaction back', async () => {
    const db = await fresh('ahead.sqlite');
    try {
      await db.insertInto('index_meta').values({ key: 'taken', value: '0' }).execute();
      // Sent without waiting, then read in the same transaction: the thread ran them first, in order.
      const seen = await db.transaction().execute(async (trx) => {
        for (let i = 0; i < 5; i++)
          await sendAhead(trx, trx.insertInto('index_meta').values({ key: `k${i}`, value: String(i) }));
        await sendAhead(trx, trx.updateTable('index_meta').set({ value: 'last' }).where('key', '=', 'k4'));
        return trx
          .selectFrom('index_meta')
          .select(['key', 'value'])
          .where('key', 'like', 'k%')
          .orderBy('key')
          .execute();
      });
      expect(seen.map((r) => `${r.key}=${r.value}`)).toEqual(['k0=0', 'k1=1', 'k2=2', 'k3=3', 'k4=last']);

      // The second fails on the thread, its caller not waiting: the statements after it are refused with its
      // error, the commit too, and nothing of the transaction is kept.
      const failed = await db
        .transaction()
        .execute(async (trx) => {
          await sendAhead(trx, trx.insertInto('index_meta').values({ key: 'a', value: '1' }));
          await sendAhead(trx, trx.insertInto('index_meta').values({ key: 'taken', value: 'again' }));
          await sendAhead(trx, trx.insertInto('index_meta').values({ key: 'b', value: '1' }));
        })
        .catch((error: unknown) => error as { code?: string });
      expect(failed?.code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
      const keys = async () =>
        (await db.selectFrom('index_meta').select('key').orderBy('key').execute()).map((r) => r.key);
      expect(await keys()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'taken']);

      // Rolled back, the connection is whole again: the next transaction commits.
      await db
        .transaction()
        .execute((trx) => sendAhead(trx, trx.insertInto('index_meta').values({ key: 'c', value: '1' })));
      expect(await keys()).toContain('c');

      // Outside a transaction nothing could undo what follows a failure: the statement is waited for.
      const alone = await sendAhead(db, db.insertInto('index_meta').values({ key: 'c', value: '2' })).catch(
        (error: unknown) => error as { code?: string },
      );
      expect(alone?.code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
      expect(await db.selectFrom('index_meta').select('value').where('key', '=', 'c').executeTakeFirst()).toEqual({
        value: '1',
      });
    } finally {
      await db.destroy();
    }
  });

  it('keeps nothing of a transaction whose last statement sent ahead fails, or whose statement never reached the thread', async () => {
    const db = await fresh('ahead-edges.sqlite');
    try {
      await db.insertInto('index_meta').values({ key: 'taken', value: '0' }).execute();
      const keys = async () =>
        (await db.selectFrom('index_meta').select('key').orderBy('key').execute()).map((r) => r.key);
      const outcome = (run: Promise<unknown>) =>
        run.then(
          () => 'committed',
          (error: { code?: unknown; message?: string }) =>
            typeof error.code === 'string' ? error.code : error.message,
        );
      // The last statement before the commit: the commit is refused with its error.
      expect(
        await outcome(
          db.transaction().execute(async (trx) => {
            await trx.insertInto('index_meta').values({ key: 'a', value: '1' }).execute();
            await sendAhead(trx, trx.insertInto('index_meta').values({ key: 'taken', value: '1' }));
          }),
        ),
      ).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
      // A caller that swallows the refusal of the statement after it still cannot commit.
      expect(
        await outcome(
          db.transaction().execute(async (trx) => {
            await sendAhead(trx, trx.insertInto('index_meta').values({ key: 'taken', value: '1' }));
            await trx
              .insertInto('index_meta')
              .values({ key: 'b', value: '1' })
              .execute()
              .catch(() => undefined);
          }),
        ),
      ).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
      // A parameter that cannot be copied to the thread: the thread never saw it, the connection refuses
      // what follows all the same.
      expect(
        await outcome(
          db.transaction().execute(async (trx) => {
            await sendAhead(trx, trx.insertInto('index_meta').values({ key: 'c', value: '1' }));
            await sendAhead(
              trx,
              trx.insertInto('index_meta').values({ key: 'd', value: Symbol('not copyable') as unknown as string }),
            );
            await sendAhead(trx, trx.insertInto('index_meta').values({ key: 'e', value: '1' }));
          }),
        ),
      ).toMatch(/could not be cloned/i);
      expect(await keys()).toEqual(['taken']);
      // And the connection is whole again after each.
      await db
        .transaction()
        .execute((trx) => sendAhead(trx, trx.insertInto('index_meta').values({ key: 'f', value: '1' })));
      expect(await keys()).toEqual(['f', 'taken']);
    } finally {
      await db.destroy();
    }
  });

  it('answers a transaction SQLite rolled back itself with the error that ended it (a full file), not its rollback’s', async () => {
    const db = await fresh('full.sqlite');
    try {
      const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0]!.page_count;
      await sql.raw(`pragma max_page_count = ${pages + 2}`).execute(db);
      const failed = await db
        .transaction()
        .execute(async (trx) => {
          for (let i = 0; i < 50; i++)
            await sendAhead(trx, trx.insertInto('index_meta').values({ key: `k${i}`, value: 'x'.repeat(2_000) }));
        })
        .catch((error: { code?: string }) => error);
      expect((failed as { code?: string }).code).toBe('SQLITE_FULL');
      expect((await sql<{ n: number }>`select count(*) as n from index_meta`.execute(db)).rows).toEqual([{ n: 0 }]);
      await sql.raw('pragma max_page_count = 1073741823').execute(db);
      await db.insertInto('index_meta').values({ key: 'after', value: '1' }).execute();
      expect((await sql<{ n: number }>`select count(*) as n from index_meta`.execute(db)).rows).toEqual([{ n: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it('leaves the event loop free while a write runs: a timer set after it fires before it ends', async () => {
    const db = await fresh('busy.sqlite');
    try {
      const order: string[] = [];
      const write = sql`insert into index_meta (key, value)
          with recursive c(x) as (select 1 union all select x + 1 from c where x < 300000)
          select 'k' || x, 'v' from c`
        .execute(db)
        .then((r) => order.push(`wrote ${r.numAffectedRows}`));
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push('timer');
      await write;
      expect(order).toEqual(['timer', 'wrote 300000']);
    } finally {
      await db.destroy();
    }
  });

  it('says why a file cannot be opened, as SQLite says it, and fails every statement the same way', async () => {
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, 'x');
    const db = sqliteWriter(join(blocker, 'index.sqlite'), PRAGMAS);
    try {
      const first = await sql`select 1`.execute(db).catch((error: unknown) => error as Error & { atOpen?: boolean });
      expect(first).toBeInstanceOf(Error);
      expect((first as Error).message).toMatch(/cannot be opened .*not-a-folder/);
      expect((first as { atOpen?: boolean }).atOpen).toBe(true);
      await expect(sql`select 1`.execute(db)).rejects.toBe(first);
    } finally {
      await db.destroy();
    }
  });

  it('closes its connection on its thread: the file’s lock is free at once for another connection', async () => {
    const path = join(dir, 'closed.sqlite');
    const db = sqliteWriter(path, PRAGMAS);
    await sql`create table index_meta (key text primary key, value text not null)`.execute(db);
    await sql`begin immediate`.execute(db);
    await db.insertInto('index_meta').values({ key: 'uncommitted', value: '1' }).execute();
    await db.destroy();
    await expect(sql`select 1`.execute(db)).rejects.toThrow(/destroyed|closed/);

    const other = new Database(path);
    try {
      other.pragma('busy_timeout = 0');
      other.prepare('insert into index_meta values (?, ?)').run('after', '1');
      expect(other.prepare('select key from index_meta').all()).toEqual([{ key: 'after' }]);
    } finally {
      other.close();
    }
  });

  it('closes after the transaction in flight, which commits; what comes after is refused as closed, no fault', async () => {
    const path = join(dir, 'in-flight.sqlite');
    const db = await (async () => {
      const made = sqliteWriter(path, PRAGMAS);
      await sql`create table index_meta (key text primary key, value text not null)`.execute(made);
      return made;
    })();
    let resume = () => {};
    const paused = new Promise<void>((resolve) => (resume = resolve));
    let started = () => {};
    const inside = new Promise<void>((resolve) => (started = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('index_meta').values({ key: 'first', value: '1' }).execute();
      started();
      await paused;
      await trx.insertInto('index_meta').values({ key: 'second', value: '2' }).execute();
    });
    await inside;
    const closed = db.destroy();
    resume();
    await transaction;
    await closed;
    const other = new Database(path);
    try {
      expect(other.prepare('select key from index_meta order by key').all()).toEqual([
        { key: 'first' },
        { key: 'second' },
      ]);
    } finally {
      other.close();
    }
    const thread = createWriterThread(path, PRAGMAS);
    await thread.close();
    const refused = await thread.run('select 1', []).catch((error: unknown) => error as { code?: string });
    expect(refused).toMatchObject({ code: WRITER_CLOSED_CODE });
    expect(storeFault(refused)).toBeNull();
  });

  it('refuses a parameter that cannot reach the thread, and goes on answering', async () => {
    const db = await fresh('clone.sqlite');
    try {
      await expect(sql`select ${Symbol('not copyable') as unknown as string} as x`.execute(db)).rejects.toThrow(
        /could not be cloned/i,
      );
      expect((await sql<{ x: number }>`select 1 as x`.execute(db)).rows).toEqual([{ x: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it('starts no thread, and opens no file, for a connection never used', async () => {
    const path = join(dir, 'never.sqlite');
    await sqliteWriter(path, PRAGMAS).destroy();
    expect(existsSync(path)).toBe(false);
  });

  it('runs a goodbye synchronously on a connection of its own (the exit’s lease release)', async () => {
    const path = join(dir, 'goodbye.sqlite');
    const connection = connect({ kind: 'sqlite', path }, { writerThread: true });
    try {
      await sql`create table index_meta (key text primary key, value text not null)`.execute(connection.db);
      await connection.db.insertInto('index_meta').values({ key: 'lease', value: 'mine' }).execute();
      connection.runNow!('delete from index_meta where key = ?', ['lease']);
      expect(await connection.db.selectFrom('index_meta').selectAll().execute()).toEqual([]);
    } finally {
      await connection.db.destroy();
    }
  });
});
