import 'server-only';
import { NOTE_DELETE_WINDOW_MS, type Note, type NoteSubject } from '@/lib/api/annotations';
import type { RequestContext } from '../context';
import { getCollection } from '../data';
import { AppError } from '../errors';
import type { Runtime } from '../runtime';
import { annotatorOf, auditedChange } from './annotator';
import { guarded } from './collections';
import { kept } from './kept';

/**
 * Notes on a collection or a contact (section 16), as `/api/…/notes` and the record and contact pages read
 * and change them. A collection's notes come with its contact's, each marked whose. Adding needs the subject
 * to exist (the upstream's record; the index's contact); deleting is the author's within 15 minutes, an
 * admin's any time. Every change is audited (`note_add`, `note_delete`), refusals too.
 */
const NOTES = 'Notes';

const noSecret = () =>
  new AppError(
    'index_unavailable',
    'Notes are sealed at rest and need INDEX_SECRET: set it (32 characters or more) and restart the dashboard',
  );

const envelope = (data: Note[]) => ({
  status: 'success' as const,
  message: 'Notes retrieved',
  data,
  meta: { count: data.length },
});

/** A collection's notes and its contact's, newest first; `contactId` when the caller read the record already. */
export async function collectionNotes(rt: Runtime, context: RequestContext, id: string, contactId?: string | null) {
  const reader = annotatorOf(context);
  const contact =
    contactId !== undefined ? contactId : ((await getCollection(rt, context, id)).data.contact.id ?? null);
  return envelope(await kept(NOTES, () => rt.annotations.notes(reader, id, contact)));
}

/** A contact's own notes (its page), newest first. */
export async function contactNotes(rt: Runtime, context: RequestContext, id: string) {
  const reader = annotatorOf(context);
  return envelope(await kept(NOTES, () => rt.annotations.notes(reader, null, id)));
}

/** Whether the index knows the contact (a note on one it never saw is a 404, as its page is). */
async function contactExists(rt: Runtime, id: string): Promise<void> {
  const queries = await rt.index.queries();
  const head = await guarded(rt, () => queries.contact(id));
  if (!head) throw AppError.of('not_found', 'contact');
}

export async function addNote(rt: Runtime, context: RequestContext, on: NoteSubject, id: string, text: string) {
  const reader = annotatorOf(context);
  const note = await auditedChange(
    rt,
    context,
    'note_add',
    id,
    async () => {
      if (!rt.annotations.canSeal()) throw noSecret();
      if (on === 'collection') await getCollection(rt, context, id);
      else await contactExists(rt, id);
      return kept(NOTES, () => rt.annotations.addNote(reader, on, id, text));
    },
    (added) => ({ on, ...(added ? { note: added.id, characters: text.length } : {}) }),
  );
  return { body: { status: 'success' as const, message: 'Note added', data: note }, status: 201 };
}

export async function deleteNote(rt: Runtime, context: RequestContext, noteId: string) {
  const reader = annotatorOf(context);
  const note = await auditedChange(
    rt,
    context,
    'note_delete',
    noteId,
    async () => {
      const found = await kept(NOTES, () => rt.annotations.note(reader, noteId));
      if (!found) throw new AppError('not_found', 'Note not found');
      if (found.deleted) return found;
      if (!found.deletable)
        throw new AppError(
          'forbidden_role',
          found.author === reader.name
            ? `A note can be deleted by its author within ${NOTE_DELETE_WINDOW_MS / 60_000} minutes of adding it; ask an admin to delete it now`
            : 'Only its author (within 15 minutes) or an admin may delete this note',
        );
      await kept(NOTES, () => rt.annotations.deleteNote(reader, noteId));
      return (await kept(NOTES, () => rt.annotations.note(reader, noteId)))!;
    },
    (done) => (done ? { on: done.on, subject: done.subjectId } : {}),
  );
  return { body: { status: 'success' as const, message: 'Note deleted', data: note } };
}

/** One note (its collection's or contact's), as the reader may see it. */
export async function getNote(rt: Runtime, context: RequestContext, noteId: string) {
  const note = await kept(NOTES, () => rt.annotations.note(annotatorOf(context), noteId));
  if (!note) throw new AppError('not_found', 'Note not found');
  return { status: 'success' as const, message: 'Note retrieved', data: note };
}
