/**
 * What a page of rows needs to remember the view a collection was opened from
 * (trail.ts reads it back on the collection's page). Kept apart so the list's
 * first load carries only this.
 */
export const TRAIL_KEY = 'collections-console:trail';
export const MAX_IDS = 100;

/** The ids of a page of the view, in order, from the rows' links (each row may link more than once). */
export function idsFromHrefs(hrefs: Iterable<string>): string[] {
  const ids: string[] = [];
  for (const href of hrefs) {
    const match = /^\/collections\/(pay_[A-Za-z0-9_-]{1,128})$/.exec(href);
    if (match && !ids.includes(match[1]!)) ids.push(match[1]!);
  }
  return ids.slice(0, MAX_IDS);
}
