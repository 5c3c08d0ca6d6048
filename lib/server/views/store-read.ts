import 'server-only';
import type { SavedView } from '@/lib/api/views';
import { defaultOf, toView, visible, type Reader, type ViewDb } from './store-rows';

/**
 * The reads of a reader's views, all through `views.reads`: every page's navigation and the list's default
 * view ask them, and the writer may be held by a sync's transaction for as long as it writes.
 */

/** The reader's views and the team's shared ones: theirs first, then by name. */
export async function listViews(
  views: ViewDb,
  reader: Reader,
): Promise<{ views: SavedView[]; defaultId: string | null }> {
  const db = await views.reads();
  const [rows, defaultId] = await Promise.all([
    visible(db, reader).orderBy('name_key').orderBy('id').execute(),
    defaultOf(db, reader),
  ]);
  const list = rows.map((row) => toView(row, reader, defaultId));
  list.sort((a, b) => Number(b.mine) - Number(a.mine));
  // A default the reader can no longer open (unshared since) is not theirs to open.
  return { views: list, defaultId: list.some((v) => v.id === defaultId) ? defaultId : null };
}

/** One view the reader may open; null when there is none (or not theirs to see). */
export async function getView(views: ViewDb, reader: Reader, id: string): Promise<SavedView | null> {
  const db = await views.reads();
  const [row, defaultId] = await Promise.all([
    visible(db, reader).where('id', '=', id).executeTakeFirst(),
    defaultOf(db, reader),
  ]);
  return row ? toView(row, reader, defaultId) : null;
}

/**
 * What a page opens, in one round of reads: the view it names (or, given null, the reader's default) and
 * the reader's default's id. The view is null when there is none the reader may open.
 */
export async function openView(
  views: ViewDb,
  reader: Reader,
  id: string | null,
): Promise<{ view: SavedView | null; defaultId: string | null }> {
  const db = await views.reads();
  const [defaultId, named] = await Promise.all([
    defaultOf(db, reader),
    id ? visible(db, reader).where('id', '=', id).executeTakeFirst() : undefined,
  ]);
  const row = id
    ? named
    : defaultId
      ? await visible(db, reader).where('id', '=', defaultId).executeTakeFirst()
      : undefined;
  return { view: row ? toView(row, reader, defaultId) : null, defaultId };
}

/** The id of the reader's default view, if they set one. */
export async function readDefaultId(views: ViewDb, reader: Reader): Promise<string | null> {
  return defaultOf(await views.reads(), reader);
}
