import 'server-only';
import { sql, type Kysely } from 'kysely';

/**
 * The list's completion-date filter (`completedFrom`, `completedTo`: the
 * overview's "completed in the range" links to exactly what it counts) reads
 * completed collections by completion time. Partial: pending ones (most of an
 * account) have no completion time and cost the sync nothing here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('collection_details_completed')
    .on('collection_details')
    .columns(['account', 'completed_at'])
    .where(sql.ref('completed_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('collection_details_completed').execute();
}
