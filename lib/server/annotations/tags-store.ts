import 'server-only';
import { sql } from 'kysely';
import { tagKey, type TagColour } from '@/lib/api/annotations';
import type { AppDb } from '../database/connect';
import type { AnnotationDb } from './notes-store';

export type TagRow = { name: string; colour: TagColour; created_at: string; updated_at: string; count?: number };
type Writer = Pick<AppDb, 'insertInto' | 'deleteFrom' | 'selectFrom' | 'updateTable'>;

/** The account's tags, by name; with `counts`, how many collections hold each. */
export async function listTags(db: AnnotationDb, account: string, counts = false): Promise<TagRow[]> {
  const reads = await db.reads();
  const rows = (await reads
    .selectFrom('tags')
    .select(['name', 'name_key', 'colour', 'created_at', 'updated_at'])
    .where('account', '=', account)
    .orderBy('name_key')
    .execute()) as (TagRow & { name_key: string })[];
  if (!counts || !rows.length)
    return rows.map(({ name, colour, created_at, updated_at }) => ({ name, colour, created_at, updated_at }));
  const held = await reads
    .selectFrom('collection_tags')
    .select(['tag', sql<number | string>`count(*)`.as('n')])
    .where('account', '=', account)
    .groupBy('tag')
    .execute();
  const byKey = new Map(held.map((h) => [h.tag, Number(h.n)]));
  return rows.map(({ name_key, ...row }) => ({ ...row, count: byKey.get(name_key) ?? 0 }));
}

export async function tagByName(db: AnnotationDb, account: string, name: string, on?: Writer) {
  const reads = on ?? (await db.database());
  return (
    (await reads
      .selectFrom('tags')
      .select(['name', 'colour', 'created_at', 'updated_at'])
      .where('account', '=', account)
      .where('name_key', '=', tagKey(name))
      .executeTakeFirst()) ?? null
  );
}

/** Rows put on: those newly holding the tag, each written to the History (`tag_changes`). */
export async function putOn(trx: Writer, account: string, key: string, ids: string[], by: string, at: string) {
  if (!ids.length) return [];
  const added = await trx
    .insertInto('collection_tags')
    .values(ids.map((id) => ({ account, tag: key, id, tagged_at: at, tagged_by: by })))
    .onConflict((oc) => oc.columns(['account', 'tag', 'id']).doNothing())
    .returning('id')
    .execute();
  if (added.length)
    await trx
      .insertInto('tag_changes')
      .values(added.map(({ id }) => ({ account, id, at, by, change: 'tag_apply' as const, tag: key })))
      .execute();
  return added.map((r) => r.id);
}

/** Rows taken off: those that held the tag, each written to the History. */
export async function takeOff(trx: Writer, account: string, key: string, ids: string[] | null, by: string, at: string) {
  let q = trx.deleteFrom('collection_tags').where('account', '=', account).where('tag', '=', key);
  if (ids) {
    if (!ids.length) return [];
    q = q.where('id', 'in', ids);
  }
  const removed = await q.returning('id').execute();
  for (let i = 0; i < removed.length; i += 1_000)
    await trx
      .insertInto('tag_changes')
      .values(
        removed.slice(i, i + 1_000).map(({ id }) => ({ account, id, at, by, change: 'tag_remove' as const, tag: key })),
      )
      .execute();
  return removed.map((r) => r.id);
}

/** The tags of each collection of a page, by id, in name order, each with its colour. */
export async function tagsOf(db: AnnotationDb, account: string, ids: string[]) {
  const byId = new Map<string, { name: string; colour: TagColour }[]>();
  if (!ids.length) return byId;
  const rows = await (
    await db.reads()
  )
    .selectFrom('collection_tags as ct')
    .innerJoin('tags as t', (join) => join.onRef('t.account', '=', 'ct.account').onRef('t.name_key', '=', 'ct.tag'))
    .select(['ct.id', 't.name', 't.colour'])
    .where('ct.account', '=', account)
    .where('ct.id', 'in', ids)
    .orderBy('ct.tag')
    .execute();
  for (const row of rows) {
    const list = byId.get(row.id) ?? [];
    list.push({ name: row.name, colour: row.colour as TagColour });
    byId.set(row.id, list);
  }
  return byId;
}

/** Each tag put on or taken off one collection, newest first (the record's History). */
export async function tagChangesOf(db: AnnotationDb, account: string, id: string) {
  return (await db.reads())
    .selectFrom('tag_changes')
    .select(['at', 'by', 'change', 'tag'])
    .where('account', '=', account)
    .where('id', '=', id)
    .orderBy('at', 'desc')
    .limit(500)
    .execute();
}
