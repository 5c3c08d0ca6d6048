import 'server-only';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { ListColumnId } from '@/lib/api/columns';
import { PINNED_MAX, VIEWS_PER_OWNER, viewNameKey, type SavedView } from '@/lib/api/views';
import type { AppDb } from '../database/connect';
import { isUniqueViolation } from '../database/dialect';
import type { AppDatabase } from '../database/schema';

/**
 * Saved views in the application's database (migration 0015), one dialect-neutral set of statements for
 * SQLite and PostgreSQL. Every read and write names the account and the reader: a view of another account,
 * or another person's view that is not shared, is simply not found (the caller answers 404 and never says
 * it exists). Rules about roles live in the caller (lib/server/reads/views.ts); the store keeps the limits
 * that need the database to hold: a name unique per owner, 100 views a person, 5 pins an account.
 */
type Row = AppDatabase['saved_views'];
export type Reader = { account: string; owner: string };
export type ViewFields = { name: string; query: string; columns: ListColumnId[]; limit: number; shared: boolean };

export class ViewConflict extends Error {
  readonly viewConflict = true;
  constructor(
    readonly field: 'name' | 'views' | 'pinned',
    message: string,
  ) {
    super(message);
    this.name = 'ViewConflict';
  }

  /**
   * By brand, not by class (as AppError): Next bundles each route apart, and the runtime that built the store
   * may hold another bundle's copy of this class.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { viewConflict?: unknown }).viewConflict === true;
  }
}

const newId = () => `view_${randomBytes(12).toString('base64url')}`;

function toView(row: Row, reader: Reader, defaultId: string | null): SavedView {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    columns: row.columns.split(',').filter(Boolean) as ListColumnId[],
    limit: Number(row.limit),
    shared: Number(row.shared) === 1,
    owner: row.owner,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    pinned: row.pinned === null ? null : Number(row.pinned),
    mine: row.owner === reader.owner,
    isDefault: row.id === defaultId,
  };
}

/**
 * `database` is where the views are written (SQLite's one writer connection); `reads` where they are read
 * (database.ts `ownReads`: on SQLite the searches' reads thread, first in line; on PostgreSQL the main pool). Every page's navigation asks for
 * the pinned views and the list for the reader's default: through the writer, each waited for the sync's
 * transaction in flight (a first scan's holds it 0.3-0.8 s). A write is committed before its caller reads it
 * back, so the reads see it.
 */
export function createViewStore(
  database: () => Promise<AppDb>,
  now: () => number,
  reads: () => Promise<AppDb> = database,
) {
  const stamp = () => new Date(now()).toISOString();

  /** What the reader may open: their own, and the account's shared ones. */
  const visible = (db: AppDb, reader: Reader) =>
    db
      .selectFrom('saved_views')
      .selectAll()
      .where('account', '=', reader.account)
      .where((w) => w.or([w('owner', '=', reader.owner), w('shared', '=', 1)]));

  async function defaultOf(db: AppDb, reader: Reader): Promise<string | null> {
    const row = await db
      .selectFrom('view_defaults')
      .select('view_id')
      .where('account', '=', reader.account)
      .where('owner', '=', reader.owner)
      .executeTakeFirst();
    return row?.view_id ?? null;
  }

  async function nameTaken(db: AppDb, reader: Reader, name: string, except: string | null) {
    let query = db
      .selectFrom('saved_views')
      .select('id')
      .where('account', '=', reader.account)
      .where('owner', '=', reader.owner)
      .where('name_key', '=', viewNameKey(name));
    if (except) query = query.where('id', '!=', except);
    return (await query.executeTakeFirst()) !== undefined;
  }

  const duplicate = (name: string) =>
    new ViewConflict('name', `Invalid name: you already have a view named “${name}”; choose another name`);

  const store = {
    /** The reader's views and the team's shared ones: theirs first, then by name. */
    async list(reader: Reader): Promise<{ views: SavedView[]; defaultId: string | null }> {
      const db = await reads();
      const [rows, defaultId] = await Promise.all([
        visible(db, reader).orderBy('name_key').orderBy('id').execute(),
        defaultOf(db, reader),
      ]);
      const views = rows.map((row) => toView(row, reader, defaultId));
      views.sort((a, b) => Number(b.mine) - Number(a.mine));
      // A default the reader can no longer open (unshared since) is not theirs to open.
      return { views, defaultId: views.some((v) => v.id === defaultId) ? defaultId : null };
    },

    /** One view the reader may open; null when there is none (or not theirs to see). */
    async get(reader: Reader, id: string): Promise<SavedView | null> {
      const db = await reads();
      const [row, defaultId] = await Promise.all([
        visible(db, reader).where('id', '=', id).executeTakeFirst(),
        defaultOf(db, reader),
      ]);
      return row ? toView(row, reader, defaultId) : null;
    },

    /** The id of the reader's default view, if they set one. */
    async defaultId(reader: Reader): Promise<string | null> {
      return defaultOf(await reads(), reader);
    },

    /**
     * What a page opens, in one round of reads: the view it names (or, given null, the reader's default) and
     * the reader's default's id. The view is null when there is none the reader may open.
     */
    async open(reader: Reader, id: string | null): Promise<{ view: SavedView | null; defaultId: string | null }> {
      const db = await reads();
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
    },

    /** The reader's default view, when they have one and may still open it. */
    async defaultView(reader: Reader): Promise<SavedView | null> {
      return (await store.open(reader, null)).view;
    },

    async create(reader: Reader, fields: ViewFields): Promise<SavedView> {
      const db = await database();
      const at = stamp();
      const row: Row = {
        id: newId(),
        account: reader.account,
        owner: reader.owner,
        name: fields.name,
        name_key: viewNameKey(fields.name),
        query: fields.query,
        columns: fields.columns.join(','),
        limit: fields.limit,
        shared: fields.shared ? 1 : 0,
        pinned: null,
        created_at: at,
        updated_at: at,
      };
      try {
        await db.transaction().execute(async (trx) => {
          const { n } = await trx
            .selectFrom('saved_views')
            .select(sql<number>`count(*)`.as('n'))
            .where('account', '=', reader.account)
            .where('owner', '=', reader.owner)
            .executeTakeFirstOrThrow();
          if (Number(n) >= VIEWS_PER_OWNER)
            throw new ViewConflict(
              'views',
              `You have ${VIEWS_PER_OWNER} saved views, the most one person can keep: delete one you no longer use first`,
            );
          if (await nameTaken(trx, reader, fields.name, null)) throw duplicate(fields.name);
          await trx.insertInto('saved_views').values(row).execute();
        });
      } catch (error) {
        // Two saves of one name at once: the unique index decides, and says the same as the check above.
        if (isUniqueViolation(error)) throw duplicate(fields.name);
        throw error;
      }
      return toView(row, reader, null);
    },

    /**
     * The owner's change of their view (name, state, sharing). Null when the reader does not own it (the
     * caller tells "not found" from "read-only" by `get`). Unsharing takes the view out of the navigation.
     */
    async update(reader: Reader, id: string, change: Partial<ViewFields>): Promise<SavedView | null> {
      const db = await database();
      const values: Partial<Row> = { updated_at: stamp() };
      if (change.name !== undefined) {
        if (await nameTaken(db, reader, change.name, id)) throw duplicate(change.name);
        values.name = change.name;
        values.name_key = viewNameKey(change.name);
      }
      if (change.query !== undefined) values.query = change.query;
      if (change.columns !== undefined) values.columns = change.columns.join(',');
      if (change.limit !== undefined) values.limit = change.limit;
      if (change.shared !== undefined) {
        values.shared = change.shared ? 1 : 0;
        if (!change.shared) values.pinned = null;
      }
      try {
        const result = await db
          .updateTable('saved_views')
          .set(values)
          .where('account', '=', reader.account)
          .where('owner', '=', reader.owner)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return null;
      } catch (error) {
        if (isUniqueViolation(error) && change.name !== undefined) throw duplicate(change.name);
        throw error;
      }
      return store.get(reader, id);
    },

    /** Pins a shared view to the account's navigation (last place) or unpins it; the caller checks the role. */
    async pin(reader: Reader, id: string, pinned: boolean): Promise<SavedView | null> {
      const db = await database();
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('saved_views')
          .select(['shared', 'pinned'])
          .where('account', '=', reader.account)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!row || Number(row.shared) !== 1) {
          if (pinned)
            throw new ViewConflict('pinned', 'Invalid pinned: only a view shared with everyone can be pinned');
          return;
        }
        if (pinned === (row.pinned !== null)) return;
        let place: number | null = null;
        if (pinned) {
          const taken = await trx
            .selectFrom('saved_views')
            .select('pinned')
            .where('account', '=', reader.account)
            .where('pinned', 'is not', null)
            .execute();
          if (taken.length >= PINNED_MAX)
            throw new ViewConflict(
              'pinned',
              `Invalid pinned: ${PINNED_MAX} views are pinned to the navigation already; unpin one first`,
            );
          place = Math.max(0, ...taken.map((t) => Number(t.pinned))) + 1;
        }
        await trx
          .updateTable('saved_views')
          .set({ pinned: place })
          .where('account', '=', reader.account)
          .where('id', '=', id)
          .execute();
      });
      return store.get(reader, id);
    },

    /** Makes a view the reader's default, or forgets their default (when it is this view). */
    async setDefault(reader: Reader, id: string, on: boolean): Promise<void> {
      const db = await database();
      if (on) {
        await db
          .insertInto('view_defaults')
          .values({ account: reader.account, owner: reader.owner, view_id: id })
          .onConflict((c) => c.columns(['account', 'owner']).doUpdateSet({ view_id: id }))
          .execute();
      } else {
        await db
          .deleteFrom('view_defaults')
          .where('account', '=', reader.account)
          .where('owner', '=', reader.owner)
          .where('view_id', '=', id)
          .execute();
      }
    },

    /** Deletes the owner's view (and every default that named it); false when it is not theirs. */
    async remove(reader: Reader, id: string): Promise<boolean> {
      const db = await database();
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('saved_views')
          .where('account', '=', reader.account)
          .where('owner', '=', reader.owner)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await trx.deleteFrom('view_defaults').where('account', '=', reader.account).where('view_id', '=', id).execute();
        return true;
      });
    },

    /** The account's pinned views, in their places: the navigation under Collections. */
    async pinned(account: string): Promise<Pick<SavedView, 'id' | 'name' | 'query' | 'limit' | 'pinned'>[]> {
      const db = await reads();
      const rows = await db
        .selectFrom('saved_views')
        .select(['id', 'name', 'query', 'limit', 'pinned'])
        .where('account', '=', account)
        .where('shared', '=', 1)
        .where('pinned', 'is not', null)
        .orderBy('pinned')
        .limit(PINNED_MAX)
        .execute();
      return rows.map((r) => ({ ...r, limit: Number(r.limit), pinned: Number(r.pinned) }));
    },
  };
  return store;
}

export type ViewStore = ReturnType<typeof createViewStore>;
