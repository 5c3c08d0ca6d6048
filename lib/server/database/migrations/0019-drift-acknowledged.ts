import 'server-only';
import type { Kysely } from 'kysely';
import { textType } from '../../database/dialect';

/**
 * An entry of the schema-drift report an admin acknowledged (contract section 11): when and by whom. An
 * acknowledged entry is part of the baseline, as what the upstream sent before the dashboard's first whole
 * sync is (index_meta `drift_baseline`): the report highlights only what is new since.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema.alterTable('drift').addColumn('acknowledged_at', text).execute();
  await db.schema.alterTable('drift').addColumn('acknowledged_by', text).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('drift').dropColumn('acknowledged_by').execute();
  await db.schema.alterTable('drift').dropColumn('acknowledged_at').execute();
}
