import 'server-only';
import type { Kysely } from 'kysely';
import { textType } from '../../database/dialect';

/**
 * A history entry's status change as two columns of its own (`status_from`, `status_to`; null when the
 * status did not change): the Overview's "Changes" panel counts the last day's by kind, and the list's
 * `change` filter finds the collections of one kind, without reading every entry's JSON. The entries kept
 * before are filled in from their JSON (history began with 0017: few rows).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema.alterTable('collection_history').addColumn('status_from', text).execute();
  await db.schema.alterTable('collection_history').addColumn('status_to', text).execute();
  // The list's `change` filter without a time: one kind's entries, not the account's whole history.
  await db.schema
    .createIndex('collection_history_status')
    .on('collection_history')
    .columns(['account', 'status_from', 'status_to', 'seen_at'])
    .execute();
  const typed = db as unknown as Kysely<{
    collection_history: {
      account: number;
      id: string;
      seen_at: string;
      changes: string;
      status_from: string | null;
      status_to: string | null;
    };
  }>;
  const rows = await typed
    .selectFrom('collection_history')
    .select(['account', 'id', 'seen_at', 'changes'])
    .where('changes', 'like', '%"status"%')
    .execute();
  for (const row of rows) {
    let status: { from?: unknown; to?: unknown } | undefined;
    try {
      status = (JSON.parse(row.changes) as { field: string; from?: unknown; to?: unknown }[]).find(
        (c) => c.field === 'status',
      );
    } catch {
      continue;
    }
    if (typeof status?.from !== 'string' || typeof status.to !== 'string') continue;
    await typed
      .updateTable('collection_history')
      .set({ status_from: status.from, status_to: status.to })
      .where('account', '=', row.account)
      .where('id', '=', row.id)
      .where('seen_at', '=', row.seen_at)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('collection_history_status').execute();
  await db.schema.alterTable('collection_history').dropColumn('status_to').execute();
  await db.schema.alterTable('collection_history').dropColumn('status_from').execute();
}
