import 'server-only';
import { Migrator, sql } from 'kysely';
import { existsSync, renameSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, storeFault, type AppDb, type Connection, type DatabaseTarget } from './connect';
import { loadColumnTypes } from './bulk-rows';
import { dialectOf } from './dialect';
import { migrationProvider } from './migrations';

const migrator = (db: AppDb) => new Migrator({ db, provider: migrationProvider });

/** The names of the migrations it applied; a failure carries the name of the one that failed (`migration`). */
async function toLatest(db: AppDb): Promise<string[]> {
  const { results, error } = await migrator(db).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw failed && error instanceof Error ? Object.assign(error, { migration: failed }) : error;
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Whether a SQLite file holds exactly this version's migrations: read without a lock (WAL readers never wait). */
async function upToDate(db: AppDb): Promise<boolean> {
  const known = await migrator(db).getMigrations();
  if (known.some((m) => !m.executedAt)) return false;
  // One applied by another version (not among ours) is for Kysely to refuse, under the lock.
  const { rows } = await sql<{ n: number | bigint }>`select count(*) as n from kysely_migration`.execute(db);
  return Number(rows[0]!.n) === known.length;
}

/**
 * Applies every migration not yet applied; returns their names. On PostgreSQL, Kysely holds an advisory lock
 * while it does, in a transaction. On SQLite it does neither (its adapter counts on one connection), so two
 * processes opening one new file both created its tables, and the one that failed set the file aside under
 * the other, which then could not write it (ENOENT: two dashboards on one file, CI 2026-11-27). Here, when
 * one is due, all of them run in one `begin immediate` transaction: the file's write lock is taken first, a
 * second process waits for it and then finds every migration applied, and a migration that fails half-way
 * leaves nothing behind. A file with none due is only read: an open never waits for another's write.
 */
export async function migrate(db: AppDb): Promise<string[]> {
  if (dialectOf(db) === 'postgres') {
    const applied = await toLatest(db);
    await loadColumnTypes(db);
    return applied;
  }
  if (await upToDate(db)) return [];
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const applied = await toLatest(conn);
      await sql`commit`.execute(conn);
      // A migration that copies a table (0025) grows the WAL by as much, and a WAL keeps its size: given back
      // at once (a reader in the way only makes it a checkpoint like any other).
      if (applied.length) await sql`pragma wal_checkpoint(truncate)`.execute(conn).catch(() => {});
      return applied;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw error;
    }
  });
}

/**
 * Moves a SQLite file and its WAL aside under `<path>.<why>-<time>` (the next open starts an empty one); with
 * `only`, only if the file at the path is still that one (its inode): another process that met the same file
 * may have set it aside already and started a new one, which is not to be set aside in its turn. Returns
 * whether it moved it.
 */
export function setFileAside(
  path: string,
  why: 'incompatible' | 'damaged',
  now: number,
  only?: number | null,
): boolean {
  if (only != null && inodeOf(path) !== only) return false;
  const aside = `${path}.${why}-${now}`;
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
  return true;
}

/** The inode of the file at `path`, or null when there is none. */
const inodeOf = (path: string): number | null => {
  try {
    return statSync(path).ino;
  } catch {
    return null;
  }
};

/** A file whose lock another process held past `busy_timeout` (its own migration, a long write). */
const busy = (error: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown })?.code ?? ''));
/**
 * How often an open that met a busy file is tried again: each try waits up to `busy_timeout` (5 s) for the
 * lock, so ~16 s in all; past that (another process's long migration) the open fails busy, and the database
 * asks again a minute later (database.ts), requests meanwhile answered at once. Turning a new file to WAL
 * can also fail busy at once, without waiting, while another process turns it (5 times in 40 starts of two
 * threads on one new file): the connection is opened again.
 */
const BUSY_RETRY_MS = 250;
const BUSY_TRIES = 3;

/** Connects and migrates, connecting again while the file is busy: a busy file is not one to set aside. */
async function connectMigrated(target: DatabaseTarget, options: { writerThread?: boolean }): Promise<Connection> {
  for (let tried = 1; ; tried++) {
    let connection: Connection;
    try {
      connection = connect(target, options);
    } catch (error) {
      // Opened on this thread (a tool, a test) and refused at once: as a writer's thread's `atOpen`.
      if (!busy(error) || tried >= BUSY_TRIES) throw Object.assign(error as Error, { atOpen: true });
      await sleep(BUSY_RETRY_MS);
      continue;
    }
    // The file it opened (a SQLite one), to set aside that one only: another process may replace it meanwhile.
    const inode = target.kind === 'sqlite' ? inodeOf(target.path) : null;
    try {
      await migrate(connection.db);
      return connection;
    } catch (error) {
      await connection.db.destroy().catch(() => {});
      if (!busy(error) || tried >= BUSY_TRIES) throw Object.assign(error as Error, { inode });
      await sleep(BUSY_RETRY_MS);
    }
  }
}

/**
 * Connects and migrates. A SQLite file this version cannot migrate (another schema, one a version before
 * this fix left half-applied) is set aside and started again: what it held is derived data or a log whose
 * copy is in the process's log lines. A PostgreSQL database is never set aside: a failed migration is an
 * error for the operator.
 */
export async function openMigrated(
  target: DatabaseTarget,
  now = Date.now,
  options: { writerThread?: boolean } = {},
): Promise<{ connection: Connection; setAside: boolean }> {
  let failed: unknown;
  try {
    return { connection: await connectMigrated(target, options), setAside: false };
  } catch (error) {
    failed = error;
    // A file SQLite could not open at all (unreadable, read-only, not a database) is the operator's to see,
    // not one to set aside (sqlite-writer.ts `atOpen`); nor is one another process kept busy, nor one it
    // cannot write or reach (its lock or commit refused: a read-only file, a full disk).
    const fault = storeFault(error);
    if (
      target.kind !== 'sqlite' ||
      (error as { atOpen?: boolean }).atOpen ||
      busy(error) ||
      fault === 'unwritable' ||
      fault === 'unreachable'
    )
      throw error;
  }
  // Two processes meeting one incompatible file both fail: the first sets it aside and starts a new one, which
  // the second must not set aside in its turn (the two would then write two files). It sets aside the file it
  // met, if that is still the one at the path; else it opens the one there.
  setFileAside(target.path, 'incompatible', now(), (failed as { inode?: number | null }).inode);
  return { connection: await connectMigrated(target, options), setAside: true };
}

/** A migrated database for a tool or a test: a target is connected (and set aside if need be); a connection is migrated. */
export async function migratedDb(target: DatabaseTarget | Connection): Promise<AppDb> {
  if ('db' in target) {
    await migrate(target.db);
    return target.db;
  }
  return (await openMigrated(target)).connection.db;
}
