import { holdsControl } from './control-characters';
/**
 * Saved views (contract section 13): a name for a list's filters, search, sort, rows per page and columns,
 * kept on the server for its owner or shared with the team. Browser-safe (no zod: the list page ships
 * it); the server validates bodies with zod in lib/api/inputs.ts, with the same rules as below.
 */
import { readColumns, type ListColumnId } from './columns';
import {
  correctState,
  DEFAULT_LIMIT,
  DEFAULT_PAGE,
  filterSchema,
  limitField,
  listStateSchema,
  PAGE_SIZES,
  parseListState,
  stateQuery,
  type ListState,
} from './list-state';

export type SavedView = {
  id: string;
  name: string;
  /** The list's URL query without `page` and `limit`: filters, search and sort, canonical. */
  query: string;
  columns: ListColumnId[];
  limit: number;
  shared: boolean;
  /** Who saved it (a signed-in e-mail, a Basic user name, or "anyone" without an access gate). */
  owner: string;
  createdAt: string;
  updatedAt: string;
  /** Pinned to the navigation by an admin (shared views only): its place, 1 to 5, or null. */
  pinned: number | null;
  /** The reader's own (changeable by them); a shared view of someone else's is read-only ("Save as"). */
  mine: boolean;
  /** The reader's default: `/collections` opens it. */
  isDefault: boolean;
};

export const VIEW_NAME_MAX = 80;
export const VIEWS_PER_OWNER = 100;
export const PINNED_MAX = 5;
export { NO_VIEW, urlStatesList } from './view-url';
/** The owner of every view without an access gate (open mode): one shared "anyone". */
export const OPEN_OWNER = 'anyone';

const VIEW_ID = /^view_[A-Za-z0-9_-]{1,64}$/;
export const isViewId = (value: unknown): value is string => typeof value === 'string' && VIEW_ID.test(value);

/** A name as stored: trimmed, inner runs of spaces kept as one. Uniqueness compares it case-insensitively. */
export const viewName = (raw: string) => raw.normalize('NFC').trim().replace(/\s+/g, ' ');
export const viewNameKey = (name: string) => viewName(name).toLocaleLowerCase('en');

/** Why a name cannot be saved, as the 400 and the form say it; null when it can. */
export function nameProblem(raw: string): string | null {
  const name = viewName(raw);
  if (!name) return 'name must not be empty';
  if ([...name].length > VIEW_NAME_MAX) return `name must be at most ${VIEW_NAME_MAX} characters`;
  // Tabs and line breaks are spaces already; the others (a NUL, which PostgreSQL's text cannot hold) are refused.
  if (holdsControl(name)) return 'name must not hold control characters';
  return null;
}

/** The list parameters a view keeps (everything of the list's state but its page and rows per page). */
// Not a contact: its page lists it, and offers no views (a view of one person would open on /collections).
const KEPT = Object.keys(filterSchema).filter((name) => name !== 'contact');

/**
 * Strict: a view's query as saved. Only the list's filters, search and sort, each valid (the list-state
 * schema's rules); the canonical query string, or the first problem naming its parameter.
 */
export function parseViewQuery(
  query: string,
): { ok: true; query: string } | { ok: false; param: string; message: string } {
  if (query.length > 2_000) return { ok: false, param: 'query', message: 'query must be at most 2,000 characters' };
  const search = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  for (const name of new Set(search.keys()))
    if (!KEPT.includes(name))
      return {
        ok: false,
        param: `query.${name.slice(0, 40)}`,
        message: `query: ${name.slice(0, 40)} is not a filter, search or sort of the list (page and limit are not kept)`,
      };
  const parsed = parseListState(search);
  if (!parsed.ok) return { ok: false, param: `query.${parsed.param}`, message: `query: ${parsed.message}` };
  return { ok: true, query: stateQuery(filterSchema, parsed.value) };
}

/**
 * Corrective: the list state a stored view opens with, and what of it no longer applies (a filter the list
 * no longer has, a value it no longer takes, a column that is gone), so the page can say so.
 */
export function openViewState(view: Pick<SavedView, 'query' | 'limit' | 'columns'>): {
  state: ListState;
  columns: ListColumnId[] | null;
  dropped: string[];
} {
  const search = new URLSearchParams(view.query);
  const dropped: string[] = [];
  for (const name of new Set(search.keys())) if (!KEPT.includes(name)) dropped.push(name.slice(0, 40));
  for (const name of dropped) search.delete(name);
  const { value } = correctState(listStateSchema, search);
  for (const name of KEPT) {
    const given = search.get(name);
    const field = filterSchema[name as keyof typeof filterSchema];
    if (given !== null && field.format(value[name as keyof ListState] as never) !== given) dropped.push(name);
  }
  const columns = readColumns(view.columns);
  if (columns) dropped.push(...columns.dropped.map((c) => `column ${c}`));
  const limit = limitField.valid(view.limit) ? view.limit : DEFAULT_LIMIT;
  return { state: { ...value, page: DEFAULT_PAGE, limit }, columns: columns?.columns ?? null, dropped };
}

/**
 * A view's address: its id and its whole state, so the URL is shareable and back and forward work. Written
 * by the list's one writer (the same order the table writes when it puts a view's state into the URL).
 */
export function viewUrl(view: Pick<SavedView, 'id' | 'query' | 'limit'>): string {
  const state = { ...correctState(listStateSchema, new URLSearchParams(view.query)).value, limit: view.limit };
  return `/collections?${stateQuery(listStateSchema, state, { keep: new URLSearchParams({ view: view.id }) })}`;
}

/** The parts of a list state a view keeps, as its query. */
export function stateViewQuery(state: ListState): string {
  return stateQuery(filterSchema, state);
}

/** Whether the list as shown differs from the view as saved (its query, rows per page or columns). */
export function viewChanged(
  view: Pick<SavedView, 'query' | 'limit' | 'columns'>,
  state: ListState,
  columns: readonly ListColumnId[],
): boolean {
  return (
    stateViewQuery(state) !== view.query ||
    state.limit !== view.limit ||
    columns.length !== view.columns.length ||
    columns.some((c, i) => c !== view.columns[i])
  );
}

export const VIEW_LIMITS: readonly number[] = PAGE_SIZES;
