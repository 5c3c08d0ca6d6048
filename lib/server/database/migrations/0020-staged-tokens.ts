import 'server-only';
import type { Kysely } from 'kysely';
import { textType } from '../../database/dialect';

/**
 * Contact tokens of a first scan, waiting to be merged (search-index/store-records.ts `settleTokens`).
 * A keyed token is random: written one record at a time, each of a record's ~8 tokens lands on its own page
 * of `contact_tokens`' tree, and a first scan of 1,000,000 records rewrote ~8 random pages a record. Staged
 * here (no key, no index: rows appended in the order they come, a few pages a slice of records), they are
 * merged in token order every few tens of thousands of records, each page of the tree written once a merge.
 * Same tokens as `contact_tokens` (keyed HMACs, nothing readable).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('contact_tokens_staged')
    .addColumn('account', 'integer', (c) => c.notNull())
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('token', text, (c) => c.notNull())
    .addColumn('id', text, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('contact_tokens_staged').execute();
}
