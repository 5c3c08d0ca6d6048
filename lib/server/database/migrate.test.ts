import Database from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postgresBinaries, startPostgres } from '@/scripts/postgres-server';
import pg from 'pg';
import { connect, type Connection } from './connect';
import type { AppDatabase } from './schema';
import { migrate, migratedDb, openMigrated, setFileAside } from './migrate';
import * as m0022 from './migrations/0022-visible-pages-kept';
import { migrationProvider } from './migrations';

describe('one SQLite file opened by two processes at once', () => {
  // Each open has a writer's thread of its own (as the application's database), with its own connection:
  // to SQLite, two processes.
  const target = (dir: string) => ({ kind: 'sqlite' as const, path: join(dir, 'index.sqlite') });
  const open = (dir: string) => openMigrated(target(dir), Date.now, { writerThread: true });

  /** Each open writes a row of its own; `written` reads which the file at the path holds. */
  const bothWrite = async (opened: { connection: { db: Kysely<AppDatabase> } }[]) => {
    for (const [i, { connection }] of opened.entries())
      await connection.db
        .insertInto('index_meta')
        .values({ key: `opened-${i}`, value: '1' })
        .execute();
  };
  const written = (file: Database.Database) =>
    file.prepare("select key from index_meta where key like 'opened-%' order by key").pluck().all();

  it('is migrated by one of them, and neither sets it aside under the other', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrate-two-'));
    try {
      const opened = await Promise.all([open(dir), open(dir)]);
      try {
        expect(opened.map((o) => o.setAside)).toEqual([false, false]);
        expect(readdirSync(dir).filter((name) => name.includes('incompatible'))).toEqual([]);
        // Both write the one file at its path, every migration applied once.
        await bothWrite(opened);
        const file = new Database(target(dir).path, { readonly: true });
        try {
          expect(written(file)).toEqual(['opened-0', 'opened-1']);
          const names = file.prepare('select name from kysely_migration').pluck().all() as string[];
          expect(new Set(names).size).toBe(names.length);
          expect(names.length).toBeGreaterThan(20);
        } finally {
          file.close();
        }
      } finally {
        await Promise.all(opened.map(({ connection }) => connection.db.destroy()));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('sets aside a file neither can migrate once, and both write the one started in its place', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrate-two-aside-'));
    try {
      // A file another version migrated (a migration this one does not know): neither can migrate it.
      const other = new Database(target(dir).path);
      other.pragma('journal_mode = WAL');
      other.exec(
        'create table kysely_migration (name varchar(255) not null primary key, timestamp varchar(255) not null)',
      );
      other.prepare('insert into kysely_migration values (?, ?)').run('9999-from-a-later-version', '2027-01-01');
      // Held a moment, so both open this file and wait for its lock, then fail on it one after the other.
      other.exec('begin immediate');
      const opening = Promise.all([open(dir), open(dir)]);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      other.exec('rollback');
      other.close();
      const opened = await opening;
      try {
        // The first to fail sets it aside; the other failed too, or opened the new file (it says so or not).
        expect(opened.some((o) => o.setAside)).toBe(true);
        // One file set aside (the other's fresh file is not), and both write the one at the path.
        expect(readdirSync(dir).filter((name) => /incompatible-\d+$/.test(name))).toHaveLength(1);
        await bothWrite(opened);
        const file = new Database(target(dir).path, { readonly: true });
        try {
          expect(written(file)).toEqual(['opened-0', 'opened-1']);
        } finally {
          file.close();
        }
      } finally {
        await Promise.all(opened.map(({ connection }) => connection.db.destroy()));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('sets aside only the file it met: not one another process started in its place', () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrate-aside-'));
    try {
      const path = target(dir).path;
      writeFileSync(path, 'the file both met');
      const met = statSync(path).ino;
      // The other process set it aside first and started a new one.
      expect(setFileAside(path, 'incompatible', 1, met)).toBe(true);
      writeFileSync(path, "the other's new file");
      expect(setFileAside(path, 'incompatible', 2, met)).toBe(false);
      expect(readFileSync(path, 'utf8')).toBe("the other's new file");
      expect(readdirSync(dir).sort()).toEqual(['index.sqlite', 'index.sqlite.incompatible-1']);
      // Without a file to compare (an open that failed before it had one): set aside as it is.
      expect(setFileAside(path, 'damaged', 3)).toBe(true);
      expect(readdirSync(dir).sort()).toEqual(['index.sqlite.damaged-3', 'index.sqlite.incompatible-1']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('waits for a write lock another process holds past busy_timeout, and keeps the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrate-held-'));
    try {
      // Another process made the file and writes to it for 6 s: longer than the writer's 5 s busy_timeout.
      const other = new Database(target(dir).path);
      other.pragma('journal_mode = WAL');
      other.exec('begin immediate');
      other.exec('create table other_process (a)');
      const inode = statSync(target(dir).path).ino;
      const released = new Promise<void>((resolve) =>
        setTimeout(() => {
          other.exec('commit');
          other.close();
          resolve();
        }, 6_000),
      );
      const opened = await open(dir);
      await released;
      try {
        expect(opened.setAside).toBe(false);
        expect(statSync(target(dir).path).ino).toBe(inode);
        const file = new Database(target(dir).path, { readonly: true });
        try {
          const tables = file.prepare("select name from sqlite_master where type = 'table'").pluck().all();
          expect(tables).toEqual(expect.arrayContaining(['other_process', 'collections', 'kysely_migration']));
        } finally {
          file.close();
        }
      } finally {
        await opened.connection.db.destroy();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('a migration that fails', () => {
  it('is named on the error, and leaves nothing of the run behind on SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrate-fails-'));
    try {
      const path = join(dir, 'index.sqlite');
      // A table the first migration creates, made by something else: that migration fails.
      const other = new Database(path);
      other.exec('create table collections (something_else text)');
      other.close();
      const { db } = connect({ kind: 'sqlite', path });
      try {
        await expect(migrate(db)).rejects.toMatchObject({ migration: '0001-index' });
      } finally {
        await db.destroy();
      }
      const file = new Database(path, { readonly: true });
      try {
        expect(file.prepare("select name from sqlite_master where type = 'table'").pluck().all()).toEqual([
          'collections',
        ]);
      } finally {
        file.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the index database on PostgreSQL', () => {
  // A real server (autovacuum is the server's own): CI installs PostgreSQL (.ci/run); a machine without it skips.
  it.skipIf(!postgresBinaries() && !process.env.CI)(
    'is migrated by one of two replicas opening it empty at once, the other waiting past its 15 s lock_timeout',
    async () => {
      const server = await startPostgres({ port: 5647 });
      const target = { kind: 'postgres' as const, url: server.url, poolMax: 2, ssl: false };
      const opened: { connection: Connection }[] = [];
      try {
        // Kysely's migration lock (its PostgreSQL adapter's key), held by a third session longer than the
        // connections' lock_timeout (connect.ts): both wait for it (Kysely sets an hour for that wait), then
        // one migrates and the other finds it done.
        const holder = new pg.Client({ connectionString: server.url });
        await holder.connect();
        await holder.query('select pg_advisory_lock(3853314791062309107)');
        const opening = Promise.allSettled([openMigrated(target), openMigrated(target)]);
        const waiting = async () =>
          Number(
            (
              await holder.query(`select count(*) as n from pg_locks where locktype = 'advisory' and not granted
                and (classid::bigint << 32 | objid::bigint) = 3853314791062309107`)
            ).rows[0].n,
          );
        for (let waited = 0; (await waiting()) < 2 && waited < 10_000; waited += 100)
          await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await waiting()).toBe(2);
        await new Promise((resolve) => setTimeout(resolve, 16_000));
        await holder.query('select pg_advisory_unlock(3853314791062309107)');
        await holder.end();
        const settled = await opening;
        for (const o of settled) if (o.status === 'fulfilled') opened.push(o.value);
        expect(settled.map((o) => (o.status === 'rejected' ? String(o.reason) : null))).toEqual([null, null]);
        const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(
          opened[0]!.connection.db,
        );
        expect(rows.length).toBe(Object.keys(await migrationProvider.getMigrations()).length);
        // Both write.
        for (const [i, { connection }] of opened.entries())
          await connection.db
            .insertInto('index_meta')
            .values({ key: `opened-${i}`, value: '1' })
            .execute();
      } finally {
        await Promise.all(opened.map(({ connection }) => connection.db.destroy()));
        await server.stop();
      }
    },
    60_000,
  );

  it.skipIf(!postgresBinaries() && !process.env.CI)(
    'vacuums the collections a scan has marked after 1 % of them, so their indexes are read alone again',
    async (context) => {
      // Autovacuum looks at the database every second here (every minute by default).
      const server = await startPostgres({ port: 5644, settings: { autovacuum_naptime: '1s' } });
      // One connection: the marks' statistics are flushed from the session that made them.
      const db = await migratedDb({ kind: 'postgres', url: server.url, poolMax: 1, ssl: false });
      try {
        // `pg_stat_force_next_flush()` is PostgreSQL 15's; an older server on the path cannot say in time.
        const { rows: version } = await sql<{
          n: number | string;
        }>`select current_setting('server_version_num')::int as n`.execute(db);
        if (Number(version[0]!.n) < 150_000) context.skip();
        await sql`insert into collections (account, id, reference_key, status, amount_value, currency, created_at,
            updated_at, completed_at, seen_at)
          select 1, 'pay_' || lpad(g::text, 5, '0'), 'inv-' || g, 'pending', g, 'NGN', '2026-11-20T00:00:00.000Z',
            '2026-11-20T00:00:00.000Z', null, '2026-11-20T00:00:00.000Z'
          from generate_series(1, 20000) as g`.execute(db);
        const vacuums = async () => {
          const { rows } = await sql<{ n: number | string }>`select autovacuum_count as n from pg_stat_user_tables
            where relname = 'collections'`.execute(db);
          return Number(rows[0]!.n);
        };
        /** A scan's marks of 1,000 rows (5 %), then whether autovacuum comes within `withinMs`. */
        const marked = async (from: number, withinMs: number) => {
          // The inserts' statistics first (counted late, they would start a vacuum of their own), then a vacuum
          // and two of autovacuum's rounds: no vacuum is then due but the marks'.
          await sql`select pg_stat_force_next_flush()`.execute(db);
          await sql`vacuum collections`.execute(db);
          await new Promise((r) => setTimeout(r, 2_500));
          const before = await vacuums();
          await sql`update collections set seen_at = '2026-11-21T00:00:00.000Z'
            where id > ${`pay_${String(from).padStart(5, '0')}`} and id <= ${`pay_${String(from + 1000).padStart(5, '0')}`}`.execute(
            db,
          );
          await sql`select pg_stat_force_next_flush()`.execute(db);
          for (const until = Date.now() + withinMs; Date.now() < until;) {
            if ((await vacuums()) > before) return true;
            await new Promise((r) => setTimeout(r, 250));
          }
          return false;
        };
        expect(await marked(0, 30_000)).toBe(true);
        // PostgreSQL's default (20 %: 4,050 rows of these 20,000) lets the marks and their cleared pages wait.
        await m0022.down(db as unknown as Kysely<unknown>);
        expect(await marked(5000, 6_000)).toBe(false);
      } finally {
        await db.destroy();
        await server.stop();
      }
    },
    90_000,
  );
});
