import 'server-only';
import type { Filters } from '@/lib/api/list-state';
import { sql } from 'kysely';
import type { ReadContext } from './context';
import { SearchPlan, isRanked } from './plan';
import { viewRows } from './rows';
import { ListRows, NARROW_COLUMNS, Rows, SORT_COLUMN } from './rows-types';

/**
 * Every row a filtered, sorted or searched view holds, in its order, with what the export writes:
 * one query, read row by row on a connection of its own (export/index-export-worker.ts).
 */
export function exportQuery(ctx: ReadContext, filters: Filters, plan: SearchPlan | null) {
  const [column, direction] = SORT_COLUMN[filters.sort];
  // CROSS JOIN fixes the order in SQLite: the sorted rows drive, each one's details looked up by key.
  // (An inner join let the planner scan the details and sort all of them in a temporary B-tree:
  // measured 97 MB of RSS growth exporting a million rows.)
  const rows = viewRows(ctx, filters, plan);
  return (plan && isRanked(plan) ? ((rows as unknown as Rows).orderBy('hits.rank') as unknown as ListRows) : rows)
    .crossJoin('collection_details as d')
    .whereRef('d.account', '=', 'collections.account')
    .whereRef('d.id', '=', 'collections.id')
    .select([
      ...NARROW_COLUMNS,
      'd.reference',
      'd.type',
      'd.completed_at',
      'd.line_item_count',
      'd.contact_sealed',
      'd.methods',
      'd.follow_up',
    ])
    .orderBy(`collections.${column}`, direction)
    .orderBy('collections.id', direction);
}

/** How many rows the export of a view writes. */
export function exportCountQuery(ctx: ReadContext, filters: Filters, plan: SearchPlan | null) {
  return viewRows(ctx, filters, plan).select(sql<number>`count(*)`.as('n'));
}
