import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '@/lib/server/database/dialect';

/**
 * References written before the sync replaced U+0000 (search-index/store-records.ts `storable`) get U+FFFD in
 * its place, in the key and in the details, as the sync now writes them. SQLite only: its trigram tokenizer
 * drops U+0000, so a key 'ab\0c' was found by the fragment 'abc', which the reference does not hold.
 * PostgreSQL's `text` never held one (such a write failed). The rows are found by their bytes (SQLite's text
 * functions stop at a NUL), in one pass over the narrow rows: at 1,000,000, 0.1 s with the file in the OS's
 * cache, 1.9-5.7 s without. The key's update is the fragments' own (their trigger). A NUL in another text
 * misleads no search: the next full scan writes again a record whose status or currency held one, and one
 * whose id held one under its new id (the old row goes when that scan completes with no page missed); a
 * type keeps it until its record changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  const clean = (text: string) => text.replaceAll('\u0000', '\uFFFD');
  // The key is the reference in NFKC and lower case, which keep a NUL: the narrow rows find them all, and
  // the details (the wide rows) are read by key.
  const rows = await sql<{ account: number; id: string; reference_key: string }>`
    select account, id, reference_key from collections where instr(cast(reference_key as blob), x'00') > 0`.execute(db);
  for (const row of rows.rows) {
    await sql`update collections set reference_key = ${clean(row.reference_key)}
      where account = ${row.account} and id = ${row.id}`.execute(db);
    const details = await sql<{ reference: string }>`select reference from collection_details
      where account = ${row.account} and id = ${row.id}`.execute(db);
    for (const { reference } of details.rows)
      await sql`update collection_details set reference = ${clean(reference)}
        where account = ${row.account} and id = ${row.id}`.execute(db);
  }
}

/** Nothing to undo: U+FFFD is a character like any other to the version before. */
export async function down(): Promise<void> {}
