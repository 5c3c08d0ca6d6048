import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf, textType } from '../../database/dialect';

/**
 * Notes and tags (contract section 16): what the team knows about a collection, kept in the application's
 * database beside saved views, keyed by the same account key (lib/server/views/service.ts `viewAccount`).
 * Not derived data: a rebuilt index or a changed INDEX_SECRET's empty index leaves them as they were.
 *
 * - `notes`: a collection's or a contact's, the text sealed (AES-256-GCM, bound to the account and the
 *   note's id: lib/server/seal.ts); a deleted note keeps its row, who deleted it and when, and
 *   loses its text.
 * - `tags`: an account's vocabulary, one name per `name_key` (the name lower-cased).
 * - `collection_tags`: which collections hold which tag. Keyed by tag first: the list's `tag=` filter
 *   reads one tag's ids in a range; `collection_tags_id` gives a page's rows their tags.
 * - `tag_changes`: each tag put on or taken off a collection, with who and when: the record's History.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  const sqlite = dialectOf(db) === 'sqlite';
  const keyed = <T extends { modifyEnd(s: ReturnType<typeof sql>): T }>(table: T) =>
    sqlite ? table.modifyEnd(sql`without rowid`) : table;
  await db.schema
    .createTable('notes')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account', text, (c) => c.notNull())
    /** `collection` or `contact`. */
    .addColumn('subject_kind', text, (c) => c.notNull())
    .addColumn('subject_id', text, (c) => c.notNull())
    .addColumn('author', text, (c) => c.notNull())
    .addColumn('sealed', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('deleted_at', text)
    .addColumn('deleted_by', text)
    .execute();
  await db.schema
    .createIndex('notes_subject')
    .on('notes')
    .columns(['account', 'subject_kind', 'subject_id', 'created_at'])
    .execute();
  await keyed(
    db.schema
      .createTable('tags')
      .addColumn('account', text, (c) => c.notNull())
      .addColumn('name_key', text, (c) => c.notNull())
      .addColumn('name', text, (c) => c.notNull())
      .addColumn('colour', text, (c) => c.notNull())
      .addColumn('created_at', text, (c) => c.notNull())
      .addColumn('updated_at', text, (c) => c.notNull())
      .addPrimaryKeyConstraint('tags_pk', ['account', 'name_key']),
  ).execute();
  await keyed(
    db.schema
      .createTable('collection_tags')
      .addColumn('account', text, (c) => c.notNull())
      .addColumn('tag', text, (c) => c.notNull())
      .addColumn('id', text, (c) => c.notNull())
      .addColumn('tagged_at', text, (c) => c.notNull())
      .addColumn('tagged_by', text, (c) => c.notNull())
      .addPrimaryKeyConstraint('collection_tags_pk', ['account', 'tag', 'id']),
  ).execute();
  await db.schema.createIndex('collection_tags_id').on('collection_tags').columns(['account', 'id', 'tag']).execute();
  await db.schema
    .createTable('tag_changes')
    .addColumn('account', text, (c) => c.notNull())
    .addColumn('id', text, (c) => c.notNull())
    .addColumn('at', text, (c) => c.notNull())
    .addColumn('by', text, (c) => c.notNull())
    /** `tag_apply` or `tag_remove`. */
    .addColumn('change', text, (c) => c.notNull())
    .addColumn('tag', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tag_changes_id').on('tag_changes').columns(['account', 'id', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['tag_changes', 'collection_tags', 'tags', 'notes']) await db.schema.dropTable(table).execute();
}
