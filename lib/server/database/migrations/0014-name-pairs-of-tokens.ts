import 'server-only';
import { sql, type Kysely } from 'kysely';

/**
 * Name pairs are made from the words' `name` tokens instead of their text (blind.ts `tokenPair`), so a
 * search can pair the forgiving forms of two words, which it knows as tokens only: "José Okefor" becomes a
 * few hundred pair lookups instead of two sets of ~50,000 ids merged. The pairs of before are deleted and
 * the pairs' backfill runs again from the sealed contacts (store-maintenance.ts); until it is done, a search
 * of several words merges the single words' ranges, as before pairs existed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from contact_tokens where kind = 'name2'`.execute(db);
  await sql`delete from index_meta where key like 'name_pairs:%'`.execute(db);
}

export async function down(): Promise<void> {
  // The pairs are written again by their backfill whichever way they are made.
}
