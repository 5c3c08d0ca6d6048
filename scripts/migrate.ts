/**
 * `npm run migrate`: applies the index's migrations to the database the dashboard would use (DATABASE_URL,
 * else INDEX_PATH's file) and says which it applied. Every replica migrates at its start anyway (under
 * PostgreSQL's advisory lock, so replicas starting together apply each migration once); running this ahead
 * of a rolling deploy moves that work, and any failure, before the first new replica starts. Exit 0 when
 * the database is up to date, 1 when a migration failed. Prints where the database is, never its URL.
 */
import { Migrator } from 'kysely';
import { connect, describeTarget } from '../lib/server/database/connect';
import { parseConfig } from '../lib/server/env';
import { migrationProvider } from '../lib/server/database/migrations';

const config = parseConfig(process.env);
const target = config.database;
const where = describeTarget(target);
const { db } = connect(target);
try {
  const { results, error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  for (const r of results ?? []) console.log(`${r.status === 'Success' ? 'applied' : r.status}: ${r.migrationName}`);
  if (error) {
    const code = (error as { code?: unknown }).code;
    console.error(`Migrating ${where} failed${typeof code === 'string' ? ` (${code})` : ''}.`);
    process.exitCode = 1;
  } else {
    console.log(results?.length ? `${where}: ${results.length} migration(s) applied.` : `${where}: up to date.`);
  }
} finally {
  await db.destroy();
}
