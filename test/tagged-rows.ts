import type { Kysely } from 'kysely';
import type { AppDatabase } from '@/lib/server/database/schema';

/**
 * Rows of `collection_tags` written directly, as the tag writes leave them: what the index's reads of a tag
 * (`tag=`, a tagged overview) are tested against, without the annotations service.
 */
export function tagRows(db: Kysely<AppDatabase>, account: string, tag: string, ids: string[]) {
  return db
    .insertInto('collection_tags')
    .values(ids.map((id) => ({ account, tag, id, tagged_at: '2026-11-01T00:00:00.000Z', tagged_by: 'test' })))
    .execute();
}
