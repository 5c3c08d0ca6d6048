import 'server-only';
import { sql, type Kysely } from 'kysely';
import { textType } from '../../database/dialect';

/**
 * The schema-drift report (contract section 11): one row per field the seed
 * does not describe and per open-set value it does not name, with how often and
 * when it was seen and one record that had it. Kept in the index's database so
 * it outlives a restart; like the audit log, never emptied with the index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('drift')
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('path', text, (c) => c.notNull())
    .addColumn('value', text, (c) => c.notNull().defaultTo(sql.lit('')))
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('first_seen', text, (c) => c.notNull())
    .addColumn('last_seen', text, (c) => c.notNull())
    .addColumn('example_id', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('drift_pk', ['kind', 'path', 'value'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('drift').execute();
}
