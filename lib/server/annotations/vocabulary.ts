import 'server-only';
import { sql } from 'kysely';
import { TAGS_PER_ACCOUNT, tagKey, type TagColour } from '@/lib/api/annotations';
import { isUniqueViolation } from '../database/dialect';
import type { AnnotationDb } from './notes-store';
import { tagByName, takeOff } from './tags-store';

/**
 * A change the vocabulary refuses (a taken name, the most tags): the 400 naming the field. Told by its name
 * (`isTagConflict`), not `instanceof`: the runtime that throws it and the route that answers may be bundled
 * apart by Next.js, each with its own copy of this class.
 */
export class TagConflict extends Error {
  override readonly name = 'TagConflict';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export const isTagConflict = (error: unknown): error is TagConflict =>
  error instanceof Error && error.name === 'TagConflict';

const taken = (name: string) =>
  new TagConflict('name', `Invalid name: a tag named ${name} exists already (names are one whatever their case)`);

export async function createTag(db: AnnotationDb, account: string, name: string, colour: TagColour) {
  const at = new Date(db.now()).toISOString();
  try {
    await (await db.database()).transaction().execute(async (trx) => {
      const { n } = await trx
        .selectFrom('tags')
        .select(sql<number>`count(*)`.as('n'))
        .where('account', '=', account)
        .executeTakeFirstOrThrow();
      if (Number(n) >= TAGS_PER_ACCOUNT)
        throw new TagConflict('name', `Invalid name: an account keeps at most ${TAGS_PER_ACCOUNT} tags`);
      if (await tagByName(db, account, name, trx)) throw taken(name);
      await trx
        .insertInto('tags')
        .values({ account, name_key: tagKey(name), name, colour, created_at: at, updated_at: at })
        .execute();
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(name);
    throw error;
  }
  return { name, colour, created_at: at, updated_at: at };
}

/**
 * A tag's colour, or its name (a rename keeps every collection's tag: their rows follow the new key). Null
 * when there is no such tag.
 */
export async function changeTag(
  db: AnnotationDb,
  account: string,
  name: string,
  change: { name?: string; colour?: TagColour },
) {
  const at = new Date(db.now()).toISOString();
  const from = tagKey(name);
  try {
    return await (await db.database()).transaction().execute(async (trx) => {
      const current = await tagByName(db, account, name, trx);
      if (!current) return null;
      const to = change.name === undefined ? from : tagKey(change.name);
      if (to !== from && (await tagByName(db, account, change.name!, trx))) throw taken(change.name!);
      await trx
        .updateTable('tags')
        .set({
          name: change.name ?? current.name,
          name_key: to,
          colour: change.colour ?? current.colour,
          updated_at: at,
        })
        .where('account', '=', account)
        .where('name_key', '=', from)
        .execute();
      if (to !== from)
        await trx
          .updateTable('collection_tags')
          .set({ tag: to })
          .where('account', '=', account)
          .where('tag', '=', from)
          .execute();
      return { ...current, name: change.name ?? current.name, colour: change.colour ?? current.colour, updated_at: at };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(change.name ?? name);
    throw error;
  }
}

/** Deletes a tag and takes it off every collection (each written to its History); null when there is none. */
export async function deleteTag(db: AnnotationDb, account: string, name: string, by: string) {
  const at = new Date(db.now()).toISOString();
  return (await db.database()).transaction().execute(async (trx) => {
    const current = await tagByName(db, account, name, trx);
    if (!current) return null;
    const removed = await takeOff(trx, account, tagKey(name), null, by, at);
    await trx.deleteFrom('tags').where('account', '=', account).where('name_key', '=', tagKey(name)).execute();
    return { name: current.name, removed: removed.length };
  });
}
