import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresBinaries, startPostgres } from '@/scripts/postgres-server';
import {
  connect,
  describeTarget,
  isStatementTimeout,
  openReads,
  postgresConfig,
  READ_STATEMENT_TIMEOUT_MS,
  storeFault,
} from './connect';

describe('the database connection', () => {
  // A real server: CI installs PostgreSQL (.ci/run); a machine without it skips this test, as the replicas' e2e.
  it.skipIf(!postgresBinaries() && !process.env.CI)(
    "cuts a read off at its bound on PostgreSQL (the reads' pool, 57014), never the sync's writes",
    async () => {
      const server = await startPostgres({ port: 5641 });
      const target = { kind: 'postgres', url: server.url, poolMax: 2, ssl: false } as const;
      const connection = connect(target);
      const reads = openReads(target);
      try {
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
        await expect(sleep(READ_STATEMENT_TIMEOUT_MS + 500).execute(connection.db)).resolves.toBeDefined();
        expect(isStatementTimeout({ code: '55P03' })).toBe(false);
      } finally {
        await connection.db.destroy();
        await reads.destroy();
        await server.stop();
      }
    },
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
    [{ code: 'upstream_error' }, null],
    [{ code: 'rate_limited', retryAfter: 3 }, null],
    [new TypeError('x is undefined'), null],
  ])('tells a store fault from anything else (%o → %s)', (error, fault) => {
    expect(storeFault(error)).toBe(fault);
  });

  it('knows pg’s own error class', () => {
    const error = new pg.DatabaseError('deadlock detected', 0, 'error');
    error.code = '40P01';
    expect(storeFault(error)).toBe('other');
  });
});
