import Database from 'better-sqlite3';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRandom } from './random';
import { ACCOUNTS, generate, SEED_VERSION, type SeedAccount } from './seed-data';

/**
 * The sandbox's SQLite store. Records are kept as the JSON the API returns, with
 * the columns the queries need beside them. `list_pos` is each integrated
 * collection's position in its account's newest-first list, so any page is an
 * index range: the last page of a million rows costs what the first does. A
 * collection added later (activity mode, the test routes) takes the position
 * before the account's head (`head_pos`, 0, -1, -2, …), so nothing is renumbered.
 */

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE accounts (id TEXT PRIMARY KEY, name TEXT NOT NULL, api_key TEXT NOT NULL UNIQUE, listed INTEGER NOT NULL, head_pos INTEGER NOT NULL DEFAULT 0);
CREATE TABLE collections (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, type TEXT NOT NULL, created_at TEXT NOT NULL, list_pos INTEGER, body TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE providers (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, body TEXT NOT NULL) WITHOUT ROWID;
`;
const INDEXES = `CREATE UNIQUE INDEX collections_list ON collections(account_id, list_pos) WHERE list_pos IS NOT NULL;`;

export type SeedOptions = { seed?: number; collections?: number; onProgress?: (done: number) => void };

export const DEFAULT_SEED = 20261122;

function fill(db: Database.Database, options: SeedOptions) {
  const r = createRandom(options.seed ?? DEFAULT_SEED);
  const insertAccount = db.prepare('INSERT INTO accounts (id, name, api_key, listed) VALUES (?, ?, ?, ?)');
  const insertCollection = db.prepare(
    'INSERT INTO collections (id, account_id, type, created_at, list_pos, body) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertProvider = db.prepare('INSERT INTO providers (id, account_id, body) VALUES (?, ?, ?)');
  let done = 0;
  for (const base of ACCOUNTS) {
    const account: SeedAccount =
      base.id === 'acc_demo' && options.collections ? { ...base, collections: options.collections } : base;
    let listed = 0;
    const batch = db.transaction((items: ReturnType<typeof generate>) => {
      for (const item of items) {
        if (item.kind === 'provider') {
          insertProvider.run(item.record.id, account.id, JSON.stringify(item.record));
          continue;
        }
        const c = item.record;
        const pos = c.type === 'integrated' ? listed++ : null;
        insertCollection.run(c.id, account.id, c.type, c.createdAt, pos, JSON.stringify(c));
        if (++done % 50_000 === 0) options.onProgress?.(done);
      }
    });
    batch(generate(r, account));
    insertAccount.run(account.id, account.name, account.key, listed);
  }
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?)').run(
    'seed_version',
    String(SEED_VERSION),
    'collections',
    String(done),
  );
}

/** Builds a database at `path` from scratch: written beside it, then renamed into place. */
export function createDatabase(path: string, options: SeedOptions = {}) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  const db = new Database(tmp);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(SCHEMA);
  fill(db, options);
  db.exec(INDEXES);
  db.exec('ANALYZE');
  db.close();
  renameSync(tmp, path);
}

function seedVersion(path: string): number | null {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare("SELECT value FROM meta WHERE key = 'seed_version'").get() as
        { value: string } | undefined;
      return row ? Number(row.value) : null;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

/**
 * Opens the sandbox database, creating and seeding it on first use: read-only
 * unless the sandbox changes its data (activity mode, the test routes).
 */
export function openDatabase(path: string, options: { writable?: boolean } = {}): Database.Database {
  if (!existsSync(path) || seedVersion(path) !== SEED_VERSION) createDatabase(path);
  const db = new Database(path, { readonly: !options.writable, fileMustExist: true });
  if (options.writable) db.pragma('journal_mode = WAL');
  db.pragma('cache_size = -65536');
  return db;
}
