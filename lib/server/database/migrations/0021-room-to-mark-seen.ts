import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '@/lib/server/database/dialect';

/**
 * Room on each of PostgreSQL's pages of collections for a new version of every row on it: a full scan marks
 * the rows it sees (`seen_at`, in no index), a hundred rows of one upstream page at a time, and those rows
 * sit side by side (written in that order). A page packed full made each mark a new row elsewhere and a new
 * entry in each of the table's ten indexes, the references' trigram index among them (an update that stays
 * on its page touches none: PostgreSQL's "HOT" update); with 15 % free (fillfactor 85) 27 % of the marks
 * stayed, with half of each page free all of them do. Measured at 1,000,000 collections, the sync scanning
 * at 5 pages a second: a page's mark 10.4 ms and 140 KB of WAL → 0.94 ms and 8 KB; PostgreSQL's CPU
 * 12-16 % → 6.3 % of a core; a 3-letter name search's p95 beside it 66 → 40 ms. The price: the table's own
 * pages 209 → 357 MiB (its indexes, 590 MiB, unchanged), and a first scan 11 % longer (6.90 → 7.68 min).
 *
 * The setting applies to pages as they are filled: a new index at once; an index already built as each row
 * moves on its next mark (one scan's pass), or at once by `VACUUM FULL collections` and then `VACUUM (ANALYZE)
 * collections` (README, Operating: the first leaves the visibility map empty, and with twice the pages the
 * planner then looked up a common first name's page 50 by key, 265-490 ms instead of 77-84). Reads were
 * measured side by side with a copy at fillfactor 100, both vacuumed, the scan running on each: the same
 * within the machine's noise. SQLite writes a row in place: nothing to do there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter table collections set (fillfactor = 50)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter table collections reset (fillfactor)`.execute(db);
}
