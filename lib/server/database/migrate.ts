import 'server-only';
import { Migrator } from 'kysely';
import { existsSync, renameSync } from 'node:fs';
import { connect, type AppDb, type Connection, type DatabaseTarget } from './connect';
import { migrationProvider } from './migrations';

/** Applies every migration not yet applied; on PostgreSQL, Kysely holds an advisory lock while it does. */
export async function migrate(db: AppDb): Promise<void> {
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) throw error;
}

/** Moves a SQLite file and its WAL aside under `<path>.<why>-<time>` (the next open starts an empty one). */
export function setFileAside(path: string, why: 'incompatible' | 'damaged', now: number): void {
  const aside = `${path}.${why}-${now}`;
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
}

/**
 * Connects and migrates. A SQLite file this version cannot migrate (another schema, a half-applied one) is
 * set aside and started again: what it held is derived data or a log whose copy is in the process's log
 * lines. A PostgreSQL database is never set aside: a failed migration is an error for the operator.
 */
export async function openMigrated(
  target: DatabaseTarget,
  now = Date.now,
  options: { writerThread?: boolean } = {},
): Promise<{ connection: Connection; setAside: boolean }> {
  let connection = connect(target, options);
  try {
    await migrate(connection.db);
    return { connection, setAside: false };
  } catch (error) {
    await connection.db.destroy().catch(() => {});
    // A file SQLite could not open at all (unreadable, read-only, not a database) is the operator's to see,
    // not one to set aside (sqlite-writer.ts `atOpen`).
    if (target.kind !== 'sqlite' || (error as { atOpen?: boolean }).atOpen) throw error;
  }
  setFileAside(target.path, 'incompatible', now());
  connection = connect(target, options);
  try {
    await migrate(connection.db);
  } catch (error) {
    await connection.db.destroy();
    throw error;
  }
  return { connection, setAside: true };
}

/** A migrated database for a tool or a test: a target is connected (and set aside if need be); a connection is migrated. */
export async function migratedDb(target: DatabaseTarget | Connection): Promise<AppDb> {
  if ('db' in target) {
    await migrate(target.db);
    return target.db;
  }
  return (await openMigrated(target)).connection.db;
}
