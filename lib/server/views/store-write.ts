import 'server-only';
import { sql } from 'kysely';
import { VIEWS_PER_OWNER, viewNameKey, type SavedView } from '@/lib/api/views';
import { isUniqueViolation } from '../database/dialect';
import {
  duplicate,
  nameTaken,
  newId,
  stamp,
  toView,
  ViewConflict,
  type Reader,
  type Row,
  type ViewDb,
  type ViewFields,
} from './store-rows';

/**
 * The owner's writes of their views, through `views.database` (the writer). The database holds the limits:
 * a name unique per owner (its unique index decides between two saves at once) and VIEWS_PER_OWNER views a
 * person (counted in the transaction that inserts).
 */

export async function createView(views: ViewDb, reader: Reader, fields: ViewFields): Promise<SavedView> {
  const db = await views.database();
  const at = stamp(views);
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
}

/**
 * The owner's change of their view (name, state, sharing); false when the reader does not own it.
 * Unsharing also unpins, which takes the view out of the navigation.
 */
export async function updateView(
  views: ViewDb,
  reader: Reader,
  id: string,
  change: Partial<ViewFields>,
): Promise<boolean> {
  const db = await views.database();
  const values: Partial<Row> = { updated_at: stamp(views) };
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
    return Number(result.numUpdatedRows) !== 0;
  } catch (error) {
    if (isUniqueViolation(error) && change.name !== undefined) throw duplicate(change.name);
    throw error;
  }
}

/** Makes a view the reader's default, or forgets their default (when it is this view). */
export async function setDefaultView(views: ViewDb, reader: Reader, id: string, on: boolean): Promise<void> {
  const db = await views.database();
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
}

/** Deletes the owner's view and every default that named it, in one transaction; false when it is not theirs. */
export async function removeView(views: ViewDb, reader: Reader, id: string): Promise<boolean> {
  const db = await views.database();
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
}
