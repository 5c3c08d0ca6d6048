import 'server-only';
import { randomBytes } from 'node:crypto';
import type { NoteSubject } from '@/lib/api/annotations';
import type { AppDb } from '../database/connect';
import type { AppDatabase } from '../database/schema';

export type NoteRow = AppDatabase['notes'];

/** Where notes are kept: the writer and the reads of the application's database (as saved views'). */
export type AnnotationDb = { database: () => Promise<AppDb>; reads: () => Promise<AppDb>; now: () => number };

export const newNoteId = () => `note_${randomBytes(12).toString('base64url')}`;

/** A collection's notes and its contact's, newest first. */
export async function notesOf(
  db: AnnotationDb,
  account: string,
  collectionId: string | null,
  contactId: string | null,
) {
  const reads = await db.reads();
  const subjects: [NoteSubject, string][] = [];
  if (collectionId) subjects.push(['collection', collectionId]);
  if (contactId) subjects.push(['contact', contactId]);
  if (!subjects.length) return [];
  return reads
    .selectFrom('notes')
    .selectAll()
    .where('account', '=', account)
    .where((eb) =>
      eb.or(subjects.map(([kind, id]) => eb.and([eb('subject_kind', '=', kind), eb('subject_id', '=', id)]))),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function insertNote(db: AnnotationDb, row: NoteRow): Promise<void> {
  await (await db.database()).insertInto('notes').values(row).execute();
}

export async function noteById(db: AnnotationDb, account: string, id: string): Promise<NoteRow | null> {
  const reads = await db.database();
  return (
    (await reads
      .selectFrom('notes')
      .selectAll()
      .where('account', '=', account)
      .where('id', '=', id)
      .executeTakeFirst()) ?? null
  );
}

/** Deletes a note's text, keeping who deleted it and when; false when it was deleted already. */
export async function markDeleted(db: AnnotationDb, account: string, id: string, by: string, at: string) {
  const result = await (
    await db.database()
  )
    .updateTable('notes')
    .set({ sealed: null, deleted_at: at, deleted_by: by })
    .where('account', '=', account)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Which of a page's collections have notes, their own or their contact's (the list's "Has notes" mark): one
 * statement through the notes' index, whatever the page's size.
 */
export async function notedOf(db: AnnotationDb, account: string, collectionIds: string[], contactIds: string[]) {
  if (!collectionIds.length && !contactIds.length)
    return { collections: new Set<string>(), contacts: new Set<string>() };
  const reads = await db.reads();
  const rows = await reads
    .selectFrom('notes')
    .select(['subject_kind', 'subject_id'])
    .distinct()
    .where('account', '=', account)
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        ...(collectionIds.length
          ? [eb.and([eb('subject_kind', '=', 'collection'), eb('subject_id', 'in', collectionIds)])]
          : []),
        ...(contactIds.length
          ? [eb.and([eb('subject_kind', '=', 'contact'), eb('subject_id', 'in', contactIds)])]
          : []),
      ]),
    )
    .execute();
  const of = (kind: NoteSubject) => new Set(rows.filter((r) => r.subject_kind === kind).map((r) => r.subject_id));
  return { collections: of('collection'), contacts: of('contact') };
}
