import type { ListColumnId } from '@/lib/api/columns';
import type { ListState } from '@/lib/api/list-state';
import type { SavedView } from '@/lib/api/views';
import { apiGet } from '@/lib/query/api-client';

/** `/api/views` from the browser (contract section 13): one key for the menu's list, one call per change. */
export const viewsQueryKey = ['views'] as const;

export type ViewsAnswer<T> = {
  data: T;
  meta: { count: number; defaultId: string | null; owner: string; openAccess: boolean; canShare: boolean };
};

type Fields = { query: string; columns: ListColumnId[]; limit: number };

export const saveView = async (body: Fields & { name: string; shared: boolean }) =>
  (await apiGet<{ data: SavedView }>('/api/views', { method: 'POST', body })).data;

export const changeView = async (
  id: string,
  body: Partial<Fields & { name: string; shared: boolean; default: boolean; pinned: boolean }>,
) => (await apiGet<{ data: SavedView }>(`/api/views/${encodeURIComponent(id)}`, { method: 'PUT', body })).data;

export const deleteView = async (id: string) =>
  apiGet<{ data: { id: string } }>(`/api/views/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** What the Views button and its deferred menu share. */
export type ViewsMenuProps = {
  state: ListState;
  columns: readonly ListColumnId[];
  /** The view this page opened (as the server read it), or null. */
  view: SavedView | null;
};

export const VIEWS_BUTTON =
  'rounded-md border border-zinc-300 px-2 py-1 text-sm font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900';
