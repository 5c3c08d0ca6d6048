import 'server-only';
import type { Kysely } from 'kysely';
import { textType } from '@/lib/server/database/dialect';

/**
 * What the list's Methods and Follow-up columns show, kept with a record's details so a filtered,
 * searched or sorted list has every column of the live one. JSON text: `methods` the payable methods
 * (`["payment_link"]`), `follow_up` `{ enabled, channels }`. Neither is contact data. Rows written
 * before this migration hold NULL until the sync writes them again: the store treats a NULL as a
 * change, so the next full scan fills every row in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('collection_details').addColumn('methods', textType(db)).execute();
  await db.schema.alterTable('collection_details').addColumn('follow_up', textType(db)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('collection_details').dropColumn('follow_up').execute();
  await db.schema.alterTable('collection_details').dropColumn('methods').execute();
}
