import { listStateSchema } from './list-state';

/**
 * The two facts of a saved view the list's first load needs (the rest of lib/api/views.ts loads with the
 * Views menu): the address that leaves any view, and whether a URL states the list itself.
 */

/** `?view=none`: the list without a view, even when the reader has a default one. */
export const NO_VIEW = 'none';

/** Whether the URL states the list itself (any of its parameters): then it wins over a view's saved state. */
export function urlStatesList(search: { has(name: string): boolean }): boolean {
  return Object.keys(listStateSchema).some((name) => search.has(name));
}
