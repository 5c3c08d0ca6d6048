import 'server-only';
import { randomBytes } from 'node:crypto';
import type { ListColumnId } from '@/lib/api/columns';
import { viewNameKey, type SavedView } from '@/lib/api/views';
import type { AppDb } from '../database/connect';
import type { AppDatabase } from '../database/schema';

/**
 * What the view store's reads and writes (store-read.ts, store-write.ts, store-pins.ts) share: the row and
 * its shape for a reader, the conflict a write refuses with, and the few queries more than one of them asks.
 * Every query names the account and the reader, so a view of another account, or another person's view
 * that is not shared, is never found.
 */
export type Row = AppDatabase['saved_views'];
export type Reader = { account: string; owner: string };
export type ViewFields = { name: string; query: string; columns: ListColumnId[]; limit: number; shared: boolean };

/**
 * Where the store's statements go, and its clock. `database` is the writer; `reads` is where reads go
 * (on SQLite a thread other than the writer's, on PostgreSQL the main pool). A write is committed before its
 * caller reads it back, so `reads` sees it.
 */
export type ViewDb = {
  database: () => Promise<AppDb>;
  reads: () => Promise<AppDb>;
  now: () => number;
};

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

export const newId = () => `view_${randomBytes(12).toString('base64url')}`;

/** The store's time as the rows keep it (ISO 8601). */
export const stamp = (views: ViewDb) => new Date(views.now()).toISOString();

export const duplicate = (name: string) =>
  new ViewConflict('name', `Invalid name: you already have a view named “${name}”; choose another name`);

export function toView(row: Row, reader: Reader, defaultId: string | null): SavedView {
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

/** What the reader may open: their own, and the account's shared ones. */
export const visible = (db: AppDb, reader: Reader) =>
  db
    .selectFrom('saved_views')
    .selectAll()
    .where('account', '=', reader.account)
    .where((w) => w.or([w('owner', '=', reader.owner), w('shared', '=', 1)]));

/** The id of the reader's default view, or null when they set none. */
export async function defaultOf(db: AppDb, reader: Reader): Promise<string | null> {
  const row = await db
    .selectFrom('view_defaults')
    .select('view_id')
    .where('account', '=', reader.account)
    .where('owner', '=', reader.owner)
    .executeTakeFirst();
  return row?.view_id ?? null;
}

/** Whether the reader has a view of this name already (other than `except`, the one being renamed). */
export async function nameTaken(db: AppDb, reader: Reader, name: string, except: string | null) {
  let query = db
    .selectFrom('saved_views')
    .select('id')
    .where('account', '=', reader.account)
    .where('owner', '=', reader.owner)
    .where('name_key', '=', viewNameKey(name));
  if (except) query = query.where('id', '!=', except);
  return (await query.executeTakeFirst()) !== undefined;
}
