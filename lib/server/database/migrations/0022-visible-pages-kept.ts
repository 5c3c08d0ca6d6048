import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '@/lib/server/database/dialect';

/**
 * PostgreSQL vacuums `collections` after 1 % of its rows changed, not its default 20 %. A scan marks every row
 * it sees (`seen_at`) and each mark clears its page's bit in the visibility map; until a vacuum sets the bits
 * again, the index-only scans that searches and lists are made of visit those pages on the heap. At 1,000,000
 * collections, a dashboard scanning at 5 pages a second cleared ~20 pages a second and left ~370 dead row
 * versions a second: the default's 200,000 took ~9 minutes, by then ~24 % of the table's pages. With 30 % of
 * them cleared, the searches measured took 1.3-2× as long as after a `VACUUM` (`INV-2026-1` p50 / p95
 * 63.5 / 114.7 → 42.7 / 54.1 ms, a common first name's page 50 94.4 / 120.3 → 55.8 / 70.0). With this setting
 * autovacuum came at each of its rounds (a minute apart by default) and kept 97.3-99.8 % of the pages
 * all-visible; each vacuum visits the pages marked since the last, and the marks, updates in place (migration
 * 0021), leave no B-tree entry to remove (the references' trigram index, a GIN, is still read whole by each
 * vacuum's cleanup: not measured). SQLite has no visibility map: nothing to do there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  // The setting's lock waits for a vacuum in progress (the leader's after a scan: ~25 s at 1,000,000), longer
  // than the connection's 15 s `lock_timeout`; reads and writes never wait behind it.
  await sql`set local lock_timeout = '2min'`.execute(db);
  await sql`alter table collections set (autovacuum_vacuum_scale_factor = 0.01)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter table collections reset (autovacuum_vacuum_scale_factor)`.execute(db);
}
