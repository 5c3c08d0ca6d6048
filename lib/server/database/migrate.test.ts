import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { postgresBinaries, startPostgres } from '@/scripts/postgres-server';
import { migratedDb } from './migrate';
import * as m0022 from './migrations/0022-visible-pages-kept';

describe('the index database on PostgreSQL', () => {
  // A real server (autovacuum is the server's own): CI installs PostgreSQL (.ci/run); a machine without it skips.
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
