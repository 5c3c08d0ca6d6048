import 'server-only';
import type { Sort } from '@/lib/api/list-state';
import type { SelectQueryBuilder } from 'kysely';
import type { AppDatabase } from '../../database/schema';

export const SORT_COLUMN: Record<Sort, ['created_at' | 'amount_value' | 'updated_at', 'asc' | 'desc']> = {
  '-createdAt': ['created_at', 'desc'],
  createdAt: ['created_at', 'asc'],
  '-amount': ['amount_value', 'desc'],
  amount: ['amount_value', 'asc'],
  '-updatedAt': ['updated_at', 'desc'],
  updatedAt: ['updated_at', 'asc'],
};

export type DetailRow = AppDatabase['collection_details'];
/** What filters, sorts and a page of results read of the narrow rows. */
export const NARROW_COLUMNS = [
  'collections.id',
  'collections.status',
  'collections.amount_value',
  'collections.currency',
  'collections.created_at',
  'collections.updated_at',
] as const;
/** What the export reads of a row. */
export type ExportRow = NarrowRow &
  Omit<DetailRow, 'account' | 'id' | 'line_item_totals'> & {
    /** Its tags' names, `;`-joined, when the file shows them (section 16). */
    tags?: string | null;
  };

export type NarrowRow = Pick<
  AppDatabase['collections'],
  'id' | 'status' | 'amount_value' | 'currency' | 'created_at' | 'updated_at'
>;

/** The index's tables plus the search's candidate ids: every arm's (`matches`), then each once (`hits`). */
export type SearchDb = AppDatabase & { matches: { id: string; rank: number }; hits: { id: string; rank: number } };
export type Rows = SelectQueryBuilder<SearchDb, 'collections' | 'hits', object>;
export type ListRows = SelectQueryBuilder<SearchDb, 'collections', object>;
