import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresBinaries, startPostgres } from '@/scripts/postgres-server';
import {
  connect,
  type AppDb,
  describeTarget,
  isStatementTimeout,
  openReads,
  postgresConfig,
  READ_STATEMENT_TIMEOUT_MS,
  closedUnder,
  storeFault,
} from './connect';

/** A real PostgreSQL server on `port`, with the application's connection and its reads' pool open on it. */
async function onPostgres(port: number, test: (writes: AppDb, reads: AppDb) => Promise<void>) {
  const server = await startPostgres({ port });
  const target = { kind: 'postgres', url: server.url, poolMax: 2, ssl: false } as const;
  const connection = connect(target);
  const reads = openReads(target);
  try {
    await test(connection.db, reads);
  } finally {
    await connection.db.destroy();
    await reads.destroy();
    await server.stop();
  }
}

describe('the database connection', () => {
  // A real server: CI installs PostgreSQL (.ci/run); a machine without it skips these tests, as the replicas' e2e.
  it.skipIf(!postgresBinaries() && !process.env.CI)(
    "cuts a read off at its bound on PostgreSQL (the reads' pool, 57014), never the sync's writes",
    () =>
      onPostgres(5641, async (writes, reads) => {
        const sleep = (ms: number) => sql`select pg_sleep(${ms / 1000})`;
        const cut = await sleep(READ_STATEMENT_TIMEOUT_MS + 1_000)
          .execute(reads)
          .then(
            () => null,
            (error: unknown) => error,
          );
        expect(isStatementTimeout(cut)).toBe(true);
        // The pool answers again at once, and a write's connection has no such bound.
        await expect(sql`select 1 as one`.execute(reads)).resolves.toMatchObject({ rows: [{ one: 1 }] });
        await expect(sleep(READ_STATEMENT_TIMEOUT_MS + 500).execute(writes)).resolves.toBeDefined();
        expect(isStatementTimeout({ code: '55P03' })).toBe(false);
      }),
    60_000,
  );

  it.skipIf(!postgresBinaries() && !process.env.CI)(
    "plans the reads' statements without parallel workers on PostgreSQL, where the sync's connection may use them",
    () =>
      onPostgres(5643, async (writes, reads) => {
        // A table large enough (~20 MB) for the planner to spread a scan of it over workers.
        await sql`create table wide as select g as id, md5(g::text) as word from generate_series(1, 300000) as g`.execute(
          writes,
        );
        await sql`analyze wide`.execute(writes);
        // Parallel plans priced as free, so the server's defaults cannot tip the comparison: only the pool's
        // setting keeps the reads from them.
        const plan = (db: AppDb) =>
          db.transaction().execute(async (trx) => {
            await sql`set local parallel_setup_cost = 0`.execute(trx);
            await sql`set local parallel_tuple_cost = 0`.execute(trx);
            await sql`set local min_parallel_table_scan_size = 0`.execute(trx);
            const { rows } = await sql<{
              'QUERY PLAN': string;
            }>`explain select count(*) from wide where word like '%ab%'`.execute(trx);
            return rows.map((r) => r['QUERY PLAN']).join('\n');
          });
        expect(await plan(writes)).toMatch(/Gather/);
        expect(await plan(reads)).not.toMatch(/Gather|Parallel/);
      }),
    60_000,
  );

  it('names a PostgreSQL target by host, port and database, never its user, password or options', () => {
    const text = describeTarget({
      kind: 'postgres',
      url: 'postgres://console:s3cret@db.internal:6543/console?sslmode=require&password=x',
      poolMax: 10,
      ssl: false,
    });
    expect(text).toBe('PostgreSQL at db.internal:6543/console');
    expect(describeTarget({ kind: 'postgres', url: 'not a url s3cret', poolMax: 1, ssl: false })).toBe('PostgreSQL');
    expect(describeTarget({ kind: 'sqlite', path: '/data/index.sqlite' })).toBe('SQLite file /data/index.sqlite');
  });

  it('reads 64-bit integers and numerics as numbers, and checks the certificate with DATABASE_SSL=require', () => {
    const config = postgresConfig({ kind: 'postgres', url: 'postgres://db/x', poolMax: 3, ssl: true });
    const parse = config.types!.getTypeParser as (oid: number) => (value: string) => unknown;
    expect(parse(20)('9007199254740')).toBe(9007199254740);
    expect(parse(1700)('12.5')).toBe(12.5);
    expect(parse(25)('text')).toBe('text');
    expect(config).toMatchObject({ max: 3, ssl: { rejectUnauthorized: true } });
    expect(postgresConfig({ kind: 'postgres', url: 'postgres://db/x', poolMax: 3, ssl: false }).ssl).toBeUndefined();
  });

  it.each([
    [{ code: 'SQLITE_CORRUPT' }, 'damaged'],
    [{ code: 'SQLITE_FULL' }, 'unwritable'],
    [{ code: 'SQLITE_READONLY_DBMOVED' }, 'unwritable'],
    [{ code: 'SQLITE_BUSY' }, 'other'],
    [{ code: 'ECONNREFUSED' }, 'unreachable'],
    // SQLite's writer thread stopped: opened again soon; a statement after a close on purpose: nothing to do.
    [{ code: 'INDEX_WRITER_STOPPED' }, 'unreachable'],
    [{ code: 'INDEX_WRITER_CLOSED' }, null],
    [{ code: '57P01' }, 'unreachable'],
    [{ code: '08006' }, 'unreachable'],
    [{ code: '28P01' }, 'unreachable'],
    [{ code: '53100' }, 'unwritable'],
    [{ code: '25006' }, 'unwritable'],
    [{ code: '40P01' }, 'other'],
    [new Error('Connection terminated unexpectedly'), 'unreachable'],
    // A read's later statement after a fault closed the connection under it: not a fault of its own (closedUnder).
    [new Error('driver has already been destroyed'), null],
    [{ code: 'upstream_error' }, null],
    [{ code: 'rate_limited', retryAfter: 3 }, null],
    [new TypeError('x is undefined'), null],
  ])('tells a store fault from anything else (%o → %s)', (error, fault) => {
    expect(storeFault(error)).toBe(fault);
  });

  it('tells a statement that came after its connection was closed (answered 503, nothing acted on)', () => {
    expect(closedUnder(new Error('driver has already been destroyed'))).toBe(true);
    expect(closedUnder({ code: 'INDEX_WRITER_CLOSED' })).toBe(true);
    expect(closedUnder({ code: 'INDEX_WRITER_STOPPED' })).toBe(false);
    expect(closedUnder(new Error('Connection terminated unexpectedly'))).toBe(false);
  });

  it('knows pg’s own error class', () => {
    const error = new pg.DatabaseError('deadlock detected', 0, 'error');
    error.code = '40P01';
    expect(storeFault(error)).toBe('other');
  });
});
