import 'server-only';
import { Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Driver } from 'kysely';
import type { AppDatabase } from './schema';

/**
 * A Kysely of SQLite whose statements a driver of ours runs on a thread (the reads' pool, the writer's
 * thread): SQLite's own adapter, introspector and compiler, the statements compiled on the calling thread.
 */
export const threadKysely = (createDriver: () => Driver): Kysely<AppDatabase> =>
  new Kysely<AppDatabase>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver,
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
