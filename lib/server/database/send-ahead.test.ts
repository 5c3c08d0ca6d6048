import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { realPostgresKinds, storeKinds } from '@/test/stores';
import type { Transaction } from 'kysely';
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

  it('run in the order sent, before the statement waited for after them, and are committed', async () => {
    const order: string[] = [];
    const seen = await db.transaction().execute((trx) =>
      aheadSettled(trx, async () => {
        for (let i = 0; i < 5; i++) {
          await sendAhead(trx, insert(trx, `k${i}`));
          order.push(`sent k${i}`);
        }
        await sendAhead(trx, trx.updateTable('index_meta').set({ value: 'last' }).where('key', '=', 'k4'));
        order.push('read');
        return trx
          .selectFrom('index_meta')
          .select(['key', 'value'])
          .where('key', 'like', 'k%')
          .orderBy('key')
          .execute();
      }),
    );
    // Each call returned before its statement ran (nothing was waited for until the read)...
    expect(order).toEqual(['sent k0', 'sent k1', 'sent k2', 'sent k3', 'sent k4', 'read']);
    // ...and the read ran after all of them, in order.
    expect(seen.map((r) => `${r.key}=${r.value}`)).toEqual(['k0=k0', 'k1=k1', 'k2=k2', 'k3=k3', 'k4=last']);
    expect(await keys()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'taken']);
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
    const failed = await outcome(async (trx) => {
      await sendAhead(trx, insert(trx, 'a'));
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
