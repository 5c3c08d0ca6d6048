import 'server-only';
import { cache } from 'react';
import type { AnnotationEvent, Note, TagColour } from '@/lib/api/annotations';
import type { RequestContext } from '../context';
import type { Runtime } from '../runtime';
import { annotatorOf } from './annotator';

/**
 * What a record's or a contact's page shows of its notes and tags (section 16), each part streamed after the
 * record and never holding it: null with the reason when the application's database cannot answer (the page
 * says so in the part's place). Part of the record's view: not audited again.
 */
/**
 * A record's notes, read once a render: its Notes part and its History both show them (React's `cache`, one
 * request's scope; the reader's name and role are in the key, as they decide what each note says).
 */
const notesOnce = cache(
  (rt: Runtime, name: string, admin: boolean, collection: string | null, contact: string | null) =>
    rt.annotations.notes({ name, admin }, collection, contact),
);

export async function notesForPage(
  rt: Runtime,
  context: RequestContext,
  subject: { collection: string | null; contact: string | null },
): Promise<{ notes: Note[] | null; unavailable: string | null }> {
  const reader = annotatorOf(context);
  if (!rt.annotations.canSeal())
    return { notes: [], unavailable: 'Notes are sealed at rest and need INDEX_SECRET: ask the operator to set it.' };
  try {
    return {
      notes: await notesOnce(rt, reader.name, reader.admin, subject.collection, subject.contact),
      unavailable: null,
    };
  } catch {
    return { notes: null, unavailable: 'Their database is not answering; try again in a moment.' };
  }
}

export async function tagsForPage(
  rt: Runtime,
  context: RequestContext,
  id: string,
): Promise<{ vocabulary: { name: string; colour: TagColour }[]; held: { name: string; colour: TagColour }[] } | null> {
  annotatorOf(context);
  try {
    const [vocabulary, held] = await Promise.all([rt.annotations.tags(), rt.annotations.tagsOf([id])]);
    return { vocabulary: vocabulary.map(({ name, colour }) => ({ name, colour })), held: held.get(id) ?? [] };
  } catch {
    return null;
  }
}

/** Notes added and deleted and tags put on and taken off, newest first: the History's other half. */
export async function annotationEvents(
  rt: Runtime,
  context: RequestContext,
  id: string,
  contact: string | null,
): Promise<AnnotationEvent[]> {
  const reader = annotatorOf(context);
  try {
    const [notes, changes, vocabulary] = await Promise.all([
      notesOnce(rt, reader.name, reader.admin, id, contact),
      rt.annotations.tagChanges(id),
      rt.annotations.tags(),
    ]);
    const names = new Map(vocabulary.map((t) => [t.name.toLocaleLowerCase('en'), t.name]));
    const events: AnnotationEvent[] = [];
    for (const note of notes) {
      events.push({ kind: 'note_add', at: note.createdAt, by: note.author, on: note.on, noteId: note.id });
      if (note.deleted)
        events.push({ kind: 'note_delete', at: note.deleted.at, by: note.deleted.by, on: note.on, noteId: note.id });
    }
    for (const change of changes)
      events.push({ kind: change.change, at: change.at, by: change.by, tag: names.get(change.tag) ?? change.tag });
    return events.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  } catch {
    return [];
  }
}
