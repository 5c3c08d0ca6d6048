import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { realPostgresKinds, storeKinds } from '@/test/stores';
import pg from 'pg';
import { sql, type Transaction } from 'kysely';
import type { AppDb } from './connect';
import type { AppDatabase } from './schema';
import { migratedDb } from './migrate';
import { aheadSettled, sendAhead } from './send-ahead';

/** PGlite, and a real server: the application's driver (node-postgres) queues a connection's statements. */
const kinds = [...storeKinds().filter((kind) => kind.dialect === 'postgres'), ...realPostgresKinds(5649)];

describe.each(kinds)('statements sent ahead in a transaction on $name', (kind) => {
  let dir: string;
  let db: AppDb;
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'send-ahead-'));
    db = await migratedDb(kind.target(dir));
    await db.insertInto('index_meta').values({ key: 'taken', value: '0' }).execute();
  });
  afterEach(async () => {
    if (!('db' in kind.target(dir))) await db.destroy();
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });

  const keys = async () => (await db.selectFrom('index_meta').select('key').orderBy('key').execute()).map((r) => r.key);
  const insert = (trx: AppDb, key: string) => trx.insertInto('index_meta').values({ key, value: key });
  /** A transaction whose statements may go ahead (as the index's writes): what it returned, or its failure. */
  const outcome = (fn: (trx: Transaction<AppDatabase>) => Promise<unknown>) =>
    db
      .transaction()
      .execute((trx) => aheadSettled(trx, () => fn(trx)))
      .catch((error: unknown) => error as Error & { code?: string });

  it('return before their statement has run, run in the order sent, before the read after them, and are committed', async () => {
    // On a real server, the proof that a call returns before its statement has run: the first statement
    // waits for a lock another session holds, and every call after it returns meanwhile (a call that waited
    // would never return: the lock is released only below). PGlite has one session: the order alone.
    const target = kind.target(dir);
    const other = 'url' in target ? new pg.Client({ connectionString: target.url }) : null;
    await other?.connect();
    try {
      await other?.query('select pg_advisory_lock(4242)');
      const seen = await db.transaction().execute((trx) =>
        aheadSettled(trx, async () => {
          if (other) await sendAhead(trx, trx.selectNoFrom(sql<void>`pg_advisory_xact_lock(4242)`.as('held')));
          for (let i = 0; i < 5; i++) await sendAhead(trx, insert(trx, `k${i}`));
          await sendAhead(trx, trx.updateTable('index_meta').set({ value: 'last' }).where('key', '=', 'k4'));
          if (other) {
            await expect
              .poll(
                async () =>
                  (
                    await other.query<{ n: number }>(
                      `select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = 4242 and not granted`,
                    )
                  ).rows[0]!.n,
                // A wait, not a figure: the statement reaches the server within milliseconds, but a loaded CI
                // machine must not fail it on expect.poll's default second.
                { timeout: 15_000 },
              )
              .toBe(1);
            await other.query('select pg_advisory_unlock(4242)');
          }
          return trx
            .selectFrom('index_meta')
            .select(['key', 'value'])
            .where('key', 'like', 'k%')
            .orderBy('key')
            .execute();
        }),
      );
      expect(seen.map((r) => `${r.key}=${r.value}`)).toEqual(['k0=k0', 'k1=k1', 'k2=k2', 'k3=k3', 'k4=last']);
      expect(await keys()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'taken']);
    } finally {
      await other?.end();
    }
  });

  it('fail the transaction with their own error, and nothing of it is kept', async () => {
    const failed = await outcome(async (trx) => {
      await sendAhead(trx, insert(trx, 'a'));
      await sendAhead(trx, insert(trx, 'taken'));
      await sendAhead(trx, insert(trx, 'b'));
      // Waited for: PostgreSQL refuses it ("current transaction is aborted"), but the error is the cause's.
      await trx.selectFrom('index_meta').select('key').execute();
    });
    expect((failed as { code?: string }).code).toBe('23505');
    expect(await keys()).toEqual(['taken']);
  });

  it('fail the transaction when the last statement sent ahead fails and nothing is waited for after it', async () => {
    // PostgreSQL answers the commit of an aborted transaction with a rollback, not an error: without the
    // settling, this transaction would look committed.
    const failed = await outcome(async (trx) => {
      await sendAhead(trx, insert(trx, 'a'));
      await sendAhead(trx, insert(trx, 'taken'));
      return 'committed';
    });
    expect(failed).not.toBe('committed');
    expect((failed as { code?: string }).code).toBe('23505');
    expect(await keys()).toEqual(['taken']);

    // The connection is whole again: the next transaction commits.
    expect(await outcome((trx) => sendAhead(trx, insert(trx, 'c')))).toBeUndefined();
    expect(await keys()).toEqual(['c', 'taken']);
  });

  it('settle what was sent when the transaction fails on its own, and give that failure', async () => {
    // Three: the first is in node-postgres's own queue before the callback throws, the others still wait in
    // Kysely's. Unsettled, they would run after the rollback, outside the transaction, and be kept.
    const failed = await outcome(async (trx) => {
      for (const key of ['a', 'b', 'c']) await sendAhead(trx, insert(trx, key));
      throw new Error('the caller gave up');
    });
    expect((failed as Error).message).toBe('the caller gave up');
    expect(await keys()).toEqual(['taken']);
  });

  it('are waited for outside `aheadSettled`: a transaction that could not settle them, or none', async () => {
    const inTransaction = await db
      .transaction()
      .execute(async (trx) => {
        await sendAhead(trx, insert(trx, 'taken'));
        return 'went on';
      })
      .catch((error: unknown) => error as { code?: string });
    expect((inTransaction as { code?: string }).code).toBe('23505');
    const alone = await sendAhead(db, insert(db, 'taken')).catch((error: unknown) => error as { code?: string });
    expect(alone?.code).toBe('23505');
    expect(await keys()).toEqual(['taken']);
  });
});
