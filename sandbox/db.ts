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

export type SeedOptions = {
  seed?: number;
  collections?: number;
  /** The test-only rows too (seed-data.ts `FORMULA_INJECTIONS`): SANDBOX_TEST_ROWS=1, for the CSV guard's tests. */
  testRows?: boolean;
  onProgress?: (done: number) => void;
  /** Accounts beside the seed's two (the several-accounts bench: scripts/bench-accounts.ts). */
  extraAccounts?: SeedAccount[];
};

export const DEFAULT_SEED = 20261122;

function fill(db: Database.Database, options: SeedOptions) {
  const r = createRandom(options.seed ?? DEFAULT_SEED);
  const insertAccount = db.prepare('INSERT INTO accounts (id, name, api_key, listed) VALUES (?, ?, ?, ?)');
  const insertCollection = db.prepare(
    'INSERT INTO collections (id, account_id, type, created_at, list_pos, body) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertProvider = db.prepare('INSERT INTO providers (id, account_id, body) VALUES (?, ?, ?)');
  let done = 0;
  for (const base of [...ACCOUNTS, ...(options.extraAccounts ?? [])]) {
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
    batch(generate(r, account, options.testRows ?? false));
    insertAccount.run(account.id, account.name, account.key, listed);
  }
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?), (?, ?)').run(
    'seed_version',
    String(SEED_VERSION),
    'collections',
    String(done),
    'test_rows',
    options.testRows ? '1' : '0',
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

/** What a sandbox file was seeded as: the seed's version and whether it holds the test rows; null if unreadable. */
function seededAs(path: string): { version: number; testRows: boolean } | null {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const meta = new Map(
        (
          db.prepare("SELECT key, value FROM meta WHERE key IN ('seed_version', 'test_rows')").all() as {
            key: string;
            value: string;
          }[]
        ).map((row) => [row.key, row.value]),
      );
      return { version: Number(meta.get('seed_version')), testRows: meta.get('test_rows') === '1' };
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

/**
 * Opens the sandbox database, creating and seeding it on first use, and again when it was seeded by another
 * version of the seed or with the test rows when none are asked for (or the other way round): read-only
 * unless the sandbox changes its data (activity mode, the test routes).
 */
export function openDatabase(
  path: string,
  options: { writable?: boolean; testRows?: boolean } = {},
): Database.Database {
  const testRows = options.testRows ?? false;
  const seeded = existsSync(path) ? seededAs(path) : null;
  if (seeded?.version !== SEED_VERSION || seeded.testRows !== testRows) createDatabase(path, { testRows });
  const db = new Database(path, { readonly: !options.writable, fileMustExist: true });
  if (options.writable) db.pragma('journal_mode = WAL');
  db.pragma('cache_size = -65536');
  return db;
}
