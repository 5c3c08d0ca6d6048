/**
 * `npm run migrate`: applies the index's migrations to the database the dashboard would use (DATABASE_URL,
 * else INDEX_PATH's file) and says which it applied. Every replica migrates at its start anyway (under
 * PostgreSQL's advisory lock, or SQLite's write lock on the file, so replicas starting together apply each
 * migration once); running this ahead of a rolling deploy moves that work, and any failure, before the first
 * new replica starts. Exit 0 when the database is up to date, 1 when a migration failed. Prints where the
 * database is, never its URL.
 */
import { connect, describeTarget } from '../lib/server/database/connect';
import { migrate } from '../lib/server/database/migrate';
import { parseConfig } from '../lib/server/env';

const config = parseConfig(process.env);
const target = config.database;
const where = describeTarget(target);
const { db } = connect(target);
try {
  // As a replica does: on SQLite under the file's write lock, so a replica starting meanwhile waits.
  const applied = await migrate(db);
  for (const name of applied) console.log(`applied: ${name}`);
  console.log(applied.length ? `${where}: ${applied.length} migration(s) applied.` : `${where}: up to date.`);
} catch (error) {
  // The migration that failed and the error's code: never its message, which may quote the database's text.
  const { code, migration } = error as { code?: unknown; migration?: unknown };
  console.error(
    `Migrating ${where} failed${typeof migration === 'string' ? ` at ${migration}` : ''}${typeof code === 'string' ? ` (${code})` : ''}.`,
  );
  process.exitCode = 1;
} finally {
  await db.destroy();
}
