import type { PGlite } from '@electric-sql/pglite';
import { sql, type Kysely } from 'kysely';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection, DatabaseTarget } from '@/lib/server/database/connect';
import pg from 'pg';
import { postgresBinaries, startPostgres, type PostgresServer } from '@/scripts/postgres-server';
import { emptyPGlite, pgliteConnection, startPGlite } from './pglite';

/**
 * The two stores the index runs on, for `describe.each`: every store test runs
 * on a SQLite file and on PostgreSQL (PGlite, in process). `target(dir)` opens
 * the same data again after a store was closed; `reset()` empties it between tests.
 */
export type StoreKind = {
  name: string;
  dialect: 'sqlite' | 'postgres';
  setup(): Promise<void>;
  target(dir: string): DatabaseTarget | Connection;
  reset(): Promise<void>;
  teardown(): Promise<void>;
  /**
   * Everything the store holds, lower-cased, read as Latin-1, UTF-8 and UTF-16: every file in `dir` (a
   * SQLite file, its WAL), or every row of every table (PostgreSQL). For "no readable contact data" checks.
   */
  storedText(db: Kysely<never>, dir: string): Promise<string>;
};

const asText = (chunks: Buffer[]) =>
  chunks
    .flatMap((b) => [b.toString('latin1'), b.toString('utf8'), b.toString('utf16le')])
    .join('\n')
    .toLowerCase();

const sqlite: StoreKind = {
  name: 'SQLite',
  dialect: 'sqlite',
  setup: async () => {},
  target: (dir) => ({ kind: 'sqlite', path: join(dir, 'index.sqlite') }),
  reset: async () => {},
  teardown: async () => {},
  async storedText(db, dir) {
    // Everything into the main file and the WAL emptied: the same bytes, a fraction of the reading.
    await sql`pragma wal_checkpoint(truncate)`.execute(db);
    return asText(readdirSync(dir).map((f) => readFileSync(join(dir, f))));
  },
};

function postgres(): StoreKind {
  let client: PGlite | null = null;
  return {
    name: 'PostgreSQL',
    dialect: 'postgres',
    async setup() {
      client ??= await startPGlite();
    },
    target: () => pgliteConnection(client!),
    reset: () => emptyPGlite(client!),
    async teardown() {
      await client?.close();
      client = null;
    },
    async storedText(db) {
      const tables = await sql<{
        name: string;
      }>`select tablename as name from pg_tables where schemaname = 'public'`.execute(db);
      const rows: Buffer[] = [];
      for (const { name } of tables.rows)
        rows.push(Buffer.from(JSON.stringify((await sql`select * from ${sql.table(name)}`.execute(db)).rows)));
      return asText(rows);
    },
  };
}

/** A fresh pair per test file (each file runs in its own worker). */
export const storeKinds = (): StoreKind[] => [sqlite, postgres()];

/**
 * A real PostgreSQL server on `port` (a fresh cluster, started by the test file), beside PGlite where what is
 * tested is node-postgres's own way (how it turns a parameter into text, its queue of a connection's
 * statements): the application's driver. CI installs PostgreSQL (.ci/run); a machine without it runs PGlite
 * only (none).
 */
export function realPostgresKinds(port: number): Pick<StoreKind, 'name' | 'setup' | 'target' | 'reset' | 'teardown'>[] {
  if (!postgresBinaries() && !process.env.CI) return [];
  let server: PostgresServer | null = null;
  return [
    {
      name: 'PostgreSQL through node-postgres',
      async setup() {
        server = await startPostgres({ port });
      },
      target: () => ({ kind: 'postgres', url: server!.url, poolMax: 2, ssl: false }),
      async reset() {
        const client = new pg.Client({ connectionString: server!.url });
        await client.connect();
        await client.query('drop schema public cascade; create schema public');
        await client.end();
      },
      async teardown() {
        await server?.stop();
      },
    },
  ];
}
