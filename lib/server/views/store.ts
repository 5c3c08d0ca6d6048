import 'server-only';
import type { SavedView } from '@/lib/api/views';
import type { AppDb } from '../database/connect';
import { pinnedViews, pinView } from './store-pins';
import { getView, listViews, openView, readDefaultId } from './store-read';
import type { Reader, ViewDb, ViewFields } from './store-rows';
import { createView, removeView, setDefaultView, updateView } from './store-write';

export { ViewConflict, type Reader, type ViewFields } from './store-rows';

/**
 * Saved views in the application's database (migration 0015), one dialect-neutral set of statements for
 * SQLite and PostgreSQL. Every read and write names the account and the reader: a view of another account,
 * or another person's view that is not shared, is simply not found (the caller answers 404 and never says
 * it exists). Rules about roles live in the caller (lib/server/reads/views.ts); the store keeps the limits
 * that need the database to hold: a name unique per owner, 100 views a person, 5 pins an account.
 *
 * `database` is where the views are written (SQLite's one writer connection); `reads` where they are read
 * (database.ts `ownReads`: on SQLite the searches' reads thread, first in line; on PostgreSQL the main pool).
 * Every page's navigation asks for the pinned views and the list for the reader's default, and the writer
 * is held by a sync's transaction for as long as it writes: through `reads` they do not wait on it. A write
 * is committed before its caller reads it back, so the reads see it.
 *
 * The statements live in store-read.ts (a reader's views), store-write.ts (the owner's changes) and
 * store-pins.ts (the account's navigation); this object hands each the same `ViewDb`.
 */
export function createViewStore(
  database: () => Promise<AppDb>,
  now: () => number,
  reads: () => Promise<AppDb> = database,
) {
  const views: ViewDb = { database, reads, now };
  const store = {
    /** The reader's views and the team's shared ones: theirs first, then by name. */
    list(reader: Reader): Promise<{ views: SavedView[]; defaultId: string | null }> {
      return listViews(views, reader);
    },

    /** One view the reader may open; null when there is none (or not theirs to see). */
    get(reader: Reader, id: string): Promise<SavedView | null> {
      return getView(views, reader, id);
    },

    /** The id of the reader's default view, if they set one. */
    defaultId(reader: Reader): Promise<string | null> {
      return readDefaultId(views, reader);
    },

    /**
     * What a page opens, in one round of reads: the view it names (or, given null, the reader's default) and
     * the reader's default's id. The view is null when there is none the reader may open.
     */
    open(reader: Reader, id: string | null): Promise<{ view: SavedView | null; defaultId: string | null }> {
      return openView(views, reader, id);
    },

    /** The reader's default view, when they have one and may still open it. */
    async defaultView(reader: Reader): Promise<SavedView | null> {
      return (await store.open(reader, null)).view;
    },

    create(reader: Reader, fields: ViewFields): Promise<SavedView> {
      return createView(views, reader, fields);
    },

    /**
     * The owner's change of their view (name, state, sharing). Null when the reader does not own it (the
     * caller tells "not found" from "read-only" by `get`). Unsharing takes the view out of the navigation.
     */
    async update(reader: Reader, id: string, change: Partial<ViewFields>): Promise<SavedView | null> {
      return (await updateView(views, reader, id, change)) ? store.get(reader, id) : null;
    },

    /** Pins a shared view to the account's navigation (last place) or unpins it; the caller checks the role. */
    async pin(reader: Reader, id: string, pinned: boolean): Promise<SavedView | null> {
      await pinView(views, reader, id, pinned);
      return store.get(reader, id);
    },

    /** Makes a view the reader's default, or forgets their default (when it is this view). */
    setDefault(reader: Reader, id: string, on: boolean): Promise<void> {
      return setDefaultView(views, reader, id, on);
    },

    /** Deletes the owner's view (and every default that named it); false when it is not theirs. */
    remove(reader: Reader, id: string): Promise<boolean> {
      return removeView(views, reader, id);
    },

    /** The account's pinned views, in their places: the navigation under Collections. */
    pinned(account: string): Promise<Pick<SavedView, 'id' | 'name' | 'query' | 'limit' | 'pinned'>[]> {
      return pinnedViews(views, account);
    },
  };
  return store;
}

export type ViewStore = ReturnType<typeof createViewStore>;
