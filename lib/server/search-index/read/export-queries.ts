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
export function exportQuery(ctx: ReadContext, filters: Filters, plan: SearchPlan | null, withTags = false) {
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
      // Its tags' names (section 16), only when the file shows them: one probe of the tags' index a row.
      withTags ? tagNames(ctx).as('tags') : sql<null>`null`.as('tags'),
    ])
    .orderBy(`collections.${column}`, direction)
    .orderBy('collections.id', direction);
}

/** How many rows the export of a view writes. */
export function exportCountQuery(ctx: ReadContext, filters: Filters, plan: SearchPlan | null) {
  return viewRows(ctx, filters, plan).select(sql<number>`count(*)`.as('n'));
}

/** A row's tags' names, `;`-joined, from the application's own tables beside the index's rows. */
const tagNames = (ctx: ReadContext) => {
  const joined =
    ctx.dialect === 'sqlite'
      ? sql<string | null>`group_concat(t.name, ';')`
      : sql<string | null>`string_agg(t.name, ';')`;
  return ctx.reads
    .selectFrom('collection_tags as ct')
    .innerJoin('tags as t', (join) => join.onRef('t.account', '=', 'ct.account').onRef('t.name_key', '=', 'ct.tag'))
    .select(joined.as('names'))
    .where('ct.account', '=', ctx.tagAccount)
    .where('ct.id', '=', sql.ref<string>('collections.id'));
};
