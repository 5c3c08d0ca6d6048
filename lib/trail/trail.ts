/**
 * Previous / next from a detail page (contract section 9): the list, filtered
 * view or search results a collection was opened from, kept for this tab
 * (sessionStorage): where it lives, which page, and that page's ids in order.
 * Opened from anywhere else, the trail does not name the record and the
 * controls stay away.
 */
export type Trail = {
  /** The page the rows came from: `/collections`, `/search` or a contact's page. */
  path: ListPath;
  /** Its query without page and limit (filters, sort, search). */
  keep: string;
  page: number;
  limit: number;
  count: number;
  ids: string[];
  /** The record opened from it. */
  active: string;
};

import { isCollectionId } from '@/lib/api/ids';
import { contactOfPath, type ListPath } from '@/lib/api/list-state';
import { MAX_IDS } from './record';

export { idsFromHrefs, TRAIL_KEY } from './record';

const positiveInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 1;

export function parseTrail(raw: string | null): Trail | null {
  if (!raw) return null;
  try {
    const t = JSON.parse(raw) as Partial<Trail>;
    if (typeof t.path !== 'string') return null;
    if (t.path !== '/collections' && t.path !== '/search' && !contactOfPath(t.path as ListPath)) return null;
    if (typeof t.keep !== 'string' || !positiveInt(t.page) || !positiveInt(t.limit) || t.limit > MAX_IDS) return null;
    if (typeof t.count !== 'number' || !Number.isInteger(t.count) || t.count < 0) return null;
    if (!Array.isArray(t.ids) || t.ids.length > MAX_IDS || !t.ids.every(isCollectionId)) return null;
    if (typeof t.active !== 'string' || !t.ids.includes(t.active)) return null;
    return { path: t.path, keep: t.keep, page: t.page, limit: t.limit, count: t.count, ids: t.ids, active: t.active };
  } catch {
    return null;
  }
}

/** Where `id` stands in the whole view ("12 of 253"), or null when the trail is not about it. */
export function position(trail: Trail | null, id: string): { index: number; overall: number } | null {
  if (!trail || trail.active !== id) return null;
  const index = trail.ids.indexOf(id);
  if (index < 0) return null;
  return { index, overall: (trail.page - 1) * trail.limit + index + 1 };
}

/** A neighbour: on this page (its id), on the page before or after (to be read), or none. */
export type Neighbour = { id: string } | { page: number; take: 'first' | 'last' } | null;

export function neighbours(trail: Trail, id: string): { previous: Neighbour; next: Neighbour } {
  const at = position(trail, id);
  if (!at) return { previous: null, next: null };
  const previous: Neighbour =
    at.index > 0 ? { id: trail.ids[at.index - 1]! } : trail.page > 1 ? { page: trail.page - 1, take: 'last' } : null;
  const next: Neighbour =
    at.index < trail.ids.length - 1
      ? { id: trail.ids[at.index + 1]! }
      : at.overall < trail.count
        ? { page: trail.page + 1, take: 'first' }
        : null;
  return { previous, next };
}

/** The dashboard API URL of one page of the trail's view. */
export function pageApiUrl(trail: Pick<Trail, 'path' | 'keep' | 'limit'>, page: number): string {
  const query = new URLSearchParams(trail.keep);
  query.set('page', String(page));
  query.set('limit', String(trail.limit));
  // A contact's page lists `/api/collections` of its contact (the id is the path's, not in `keep`).
  const contact = contactOfPath(trail.path);
  if (contact) query.set('contact', contact);
  return `/api${trail.path === '/search' ? '/search' : '/collections'}?${query}`;
}

/** The trail after moving to a neighbour (on another page when `ids` of that page are given). */
export function moved(trail: Trail, to: string, page?: { page: number; ids: string[] }): Trail {
  return page ? { ...trail, page: page.page, ids: page.ids.slice(0, MAX_IDS), active: to } : { ...trail, active: to };
}
