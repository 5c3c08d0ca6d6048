import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Connection } from '@/lib/server/database/connect';
import type { AppDatabase } from '@/lib/server/database/schema';

/**
 * PostgreSQL in the test process: PGlite (PostgreSQL compiled to WASM) behind
 * Kysely's own PostgreSQL adapter and compiler, so the store's SQL is exactly
 * what a PostgreSQL server gets. PGlite is one session: this driver hands it to
 * one Kysely connection at a time (a transaction holds it until it ends), as a
 * pool of one would. (kysely-pglite shares the session between connections, so
 * a query issued while another caller's transaction is open ran inside it.)
 */
class PGliteDriver implements Driver {
  #turn: Promise<void> = Promise.resolve();
  constructor(private readonly client: PGlite) {}

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.#turn;
    let release!: () => void;
    this.#turn = new Promise((resolve) => (release = resolve));
    await previous;
    const client = this.client;
    const connection: DatabaseConnection & { release(): void } = {
      release,
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        const result = await client.query<R>(query.sql, [...query.parameters]);
        return {
          rows: result.rows,
          ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
        };
      },
      async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
        throw new Error('streaming is not used with PGlite');
      },
    };
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(connection: DatabaseConnection) {
    (connection as DatabaseConnection & { release(): void }).release();
  }
  /** The session outlives a store: the test that made it closes it. */
  async destroy() {}
}

/** An in-memory PostgreSQL, its 64-bit integers and numerics read as numbers (as the server's pool does). */
export async function startPGlite(): Promise<PGlite> {
  const asNumber = (value: string) => Number(value);
  // pg_trgm: the reference fragments' index (migration 0011), as a PostgreSQL server has it.
  return PGlite.create({ parsers: { 20: asNumber, 1700: asNumber }, extensions: { pg_trgm } });
}

/** A store connection on a PGlite session. */
export function pgliteConnection(client: PGlite): Connection {
  const db = new Kysely<AppDatabase>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new PGliteDriver(client),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  return { db, dialect: 'postgres' };
}

/** Drops every table (the migrations' too), so the next store starts from an empty database. */
export async function emptyPGlite(client: PGlite): Promise<void> {
  await client.exec('drop schema public cascade; create schema public;');
}
