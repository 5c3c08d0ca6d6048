import 'server-only';
import { tagKey } from '@/lib/api/annotations';
import type { AnnotationDb } from './notes-store';
import { putOn, takeOff } from './tags-store';

/**
 * A record's tags set whole (`PUT /api/collections/{id}/tags`): what it held and the names given, put on and
 * taken off in one transaction, each change written to the record's History. The names are known tags (the
 * caller checked them against the vocabulary).
 */
export async function setTags(db: AnnotationDb, account: string, id: string, names: string[], by: string) {
  const at = new Date(db.now()).toISOString();
  const wanted = new Set(names.map(tagKey));
  return (await db.database()).transaction().execute(async (trx) => {
    const held = new Set(
      (
        await trx
          .selectFrom('collection_tags')
          .select('tag')
          .where('account', '=', account)
          .where('id', '=', id)
          .execute()
      ).map((r) => r.tag),
    );
    const added: string[] = [];
    const removed: string[] = [];
    for (const key of wanted)
      if (!held.has(key) && (await putOn(trx, account, key, [id], by, at)).length) added.push(key);
    for (const key of held)
      if (!wanted.has(key) && (await takeOff(trx, account, key, [id], by, at)).length) removed.push(key);
    return { added, removed };
  });
}

/** The most rows one transaction of a bulk tagging writes: short, so pages' reads and other writes go between. */
export const BULK_CHUNK = 1_000;

/**
 * One tag put on (or taken off) many collections, a chunk per transaction; two people tagging the same rows
 * at once lose nothing (a row held already is skipped by its key). How many rows changed. Between two chunks
 * it waits as long as the last one took, leaving others half the database's time: on two cores, 100,000 rows
 * tagged back to back slowed the pages beside them 1.7-5× (bench:annotations).
 */
export async function tagMany(
  db: AnnotationDb,
  account: string,
  name: string,
  ids: string[],
  by: string,
  on: boolean,
): Promise<number> {
  const at = new Date(db.now()).toISOString();
  const key = tagKey(name);
  let changed = 0;
  for (let i = 0; i < ids.length; i += BULK_CHUNK) {
    const chunk = ids.slice(i, i + BULK_CHUNK);
    const started = performance.now();
    const done = await (
      await db.database()
    )
      .transaction()
      .execute((trx) => (on ? putOn(trx, account, key, chunk, by, at) : takeOff(trx, account, key, chunk, by, at)));
    changed += done.length;
    if (i + BULK_CHUNK < ids.length) await new Promise((resolve) => setTimeout(resolve, performance.now() - started));
  }
  return changed;
}
