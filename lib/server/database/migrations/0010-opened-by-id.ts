import 'server-only';
import { sql, type Kysely } from 'kysely';

/**
 * Collections the list operation does not return (not `integrated`) are indexed once a user opens one by
 * its id, and a completed scan keeps them (it cannot see them). This small partial index counts them and
 * finds them for that, without reading every record's details: "237 listed + 1 opened by id".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('collection_details_opened')
    .on('collection_details')
    .columns(['account', 'id'])
    .where(sql.ref('type'), '<>', 'integrated')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('collection_details_opened').execute();
}
