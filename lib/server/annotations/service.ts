import 'server-only';
import { NOTE_DELETE_WINDOW_MS, type Note, type NoteSubject, type Tag, type TagColour } from '@/lib/api/annotations';
import { appAccountKey } from '../accounts/app-key';
import type { AppDb } from '../database/connect';
import {
  insertNote,
  markDeleted,
  newNoteId,
  noteById,
  notedOf,
  notesOf,
  type AnnotationDb,
  type NoteRow,
} from './notes-store';
import { noteAad, noteSeal, type NoteSeal } from '../seal';
import { listTags, tagChangesOf, tagsOf } from './tags-store';
import { setTags, tagMany } from './tagging';
import { changeTag, createTag, deleteTag } from './vocabulary';

export { isTagConflict, TagConflict } from './vocabulary';

/** Who reads: their name as notes and tags record it, and whether they are an admin (who may delete any note). */
export type Annotator = { name: string; admin: boolean };

/**
 * One account's notes and tags (section 16), as the runtime builds them: the stores over the application's
 * database, keyed by the account's key as saved views are, and the notes' seal. No rules about who may do
 * what beyond a note's deletion (lib/server/reads/annotations-*.ts holds the rest, and the audit).
 */
export function createAnnotations(deps: {
  database: () => Promise<AppDb>;
  reads: () => Promise<AppDb>;
  now: () => number;
  upstreamKey: string;
  /** The data secret (data-secret.ts); null when there is none, and then notes cannot be kept. */
  secret: () => string | null;
}) {
  const db: AnnotationDb = { database: deps.database, reads: deps.reads, now: deps.now };
  const account = appAccountKey(deps.upstreamKey);
  let seal: NoteSeal | null = null;
  const sealer = () => {
    if (seal) return seal;
    const secret = deps.secret();
    return secret ? (seal = noteSeal(secret)) : null;
  };
  const toNote = (row: NoteRow, reader: Annotator): Note => {
    const text = row.sealed ? (sealer()?.open(row.sealed, noteAad(account, row.id)) ?? null) : null;
    const deletable =
      !row.deleted_at &&
      (reader.admin || (row.author === reader.name && deps.now() - Date.parse(row.created_at) < NOTE_DELETE_WINDOW_MS));
    return {
      id: row.id,
      on: row.subject_kind,
      subjectId: row.subject_id,
      author: row.author,
      createdAt: row.created_at,
      text: row.deleted_at
        ? null
        : (text ?? (row.sealed ? '(This note was sealed under another INDEX_SECRET and cannot be read)' : null)),
      deleted: row.deleted_at ? { by: row.deleted_by ?? '', at: row.deleted_at } : null,
      deletable,
    };
  };

  return {
    account,
    /** Whether notes can be kept (a data secret is set). */
    canSeal: () => sealer() !== null,
    async notes(reader: Annotator, collectionId: string | null, contactId: string | null): Promise<Note[]> {
      return (await notesOf(db, account, collectionId, contactId)).map((row) => toNote(row, reader));
    },
    async addNote(reader: Annotator, on: NoteSubject, subjectId: string, text: string): Promise<Note> {
      const sealing = sealer();
      if (!sealing) throw new Error('no data secret');
      const id = newNoteId();
      const row: NoteRow = {
        id,
        account,
        subject_kind: on,
        subject_id: subjectId,
        author: reader.name,
        sealed: sealing.seal(text, noteAad(account, id)),
        created_at: new Date(deps.now()).toISOString(),
        deleted_at: null,
        deleted_by: null,
      };
      await insertNote(db, row);
      return toNote(row, reader);
    },
    async note(reader: Annotator, id: string): Promise<Note | null> {
      const row = await noteById(db, account, id);
      return row && toNote(row, reader);
    },
    /** Deletes the note's text; false when it was deleted already (by someone else at the same moment). */
    deleteNote: (reader: Annotator, id: string) =>
      markDeleted(db, account, id, reader.name, new Date(deps.now()).toISOString()),
    noted: (collectionIds: string[], contactIds: string[]) => notedOf(db, account, collectionIds, contactIds),

    async tags(counts = false): Promise<Tag[]> {
      return (await listTags(db, account, counts)).map(toTag);
    },
    createTag: async (name: string, colour: TagColour) => toTag(await createTag(db, account, name, colour)),
    changeTag: async (name: string, change: { name?: string; colour?: TagColour }) => {
      const row = await changeTag(db, account, name, change);
      return row && toTag(row as Parameters<typeof toTag>[0]);
    },
    deleteTag: (reader: Annotator, name: string) => deleteTag(db, account, name, reader.name),
    tagsOf: (ids: string[]) => tagsOf(db, account, ids),
    setTags: (reader: Annotator, id: string, names: string[]) => setTags(db, account, id, names, reader.name),
    tagMany: (reader: Annotator, name: string, ids: string[], on = true) =>
      tagMany(db, account, name, ids, reader.name, on),
    tagChanges: (id: string) => tagChangesOf(db, account, id),
  };
}

function toTag(row: { name: string; colour: string; created_at: string; updated_at: string; count?: number }): Tag {
  return {
    name: row.name,
    colour: row.colour as TagColour,
    count: row.count ?? 0,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type Annotations = ReturnType<typeof createAnnotations>;
