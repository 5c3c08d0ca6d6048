import { holdsControl } from './control-characters';

export { isTagName, TAG_NAME_MAX, tagKey, tagNameProblem, tagQuery, tagQueryHref } from './tag-names';

/**
 * Notes and tags (contract section 16): what the team knows about a collection, kept beside it in the
 * application's database. Browser-safe (no zod: the record page and the list ship it); the server checks
 * bodies with zod in lib/api/inputs.ts by the same rules.
 */
export const NOTE_MAX = 2_000;
/** How long the author may take their note back; admins may delete any at any time. */
export const NOTE_DELETE_WINDOW_MS = 15 * 60_000;
export const TAGS_PER_ACCOUNT = 200;
export const TAGS_PER_COLLECTION = 20;
/** The most ids one bulk tagging names; a list state tags up to BULK_QUERY_MAX rows. */
export const BULK_IDS_MAX = 1_000;
export const BULK_QUERY_MAX = 100_000;

export const TAG_COLOURS = ['grey', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink'] as const;
export type TagColour = (typeof TAG_COLOURS)[number];
export const DEFAULT_TAG_COLOUR: TagColour = 'grey';

/** Why a note's text cannot be kept, after `Invalid text: `; null when it can. */
export function noteProblem(raw: string): string | null {
  const text = noteText(raw);
  if (!text) return 'text must not be empty';
  if ([...text].length > NOTE_MAX) return `text must be at most ${NOTE_MAX.toLocaleString('en')} characters`;
  return null;
}
/** A note as kept: NFC, trimmed, line breaks kept, other control characters dropped. */
export const noteText = (raw: string) =>
  [...raw.normalize('NFC').replace(/\r\n?/g, '\n')]
    .filter((c) => c === '\n' || c === '\t' || !holdsControl(c))
    .join('')
    .trim();

export type Tag = { name: string; colour: TagColour; count: number; createdAt: string; updatedAt: string };

export type NoteSubject = 'collection' | 'contact';
export type Note = {
  id: string;
  /** Whose note: the collection's own, or its contact's (shown on each of their collections). */
  on: NoteSubject;
  subjectId: string;
  author: string;
  createdAt: string;
  /** Null once deleted: the text is in nobody's view. */
  text: string | null;
  deleted: { by: string; at: string } | null;
  /** Whether the reader may delete it now (the author within the window, an admin any time). */
  deletable: boolean;
};

const NOTE_ID = /^note_[A-Za-z0-9_-]{1,64}$/;
export const isNoteId = (value: unknown): value is string => typeof value === 'string' && NOTE_ID.test(value);

/**
 * A note's text as pieces to render: plain text and links (http and https only, a trailing full stop or
 * bracket left out). Never HTML: each piece is rendered as text or as an anchor with that text.
 */
export function linkPieces(text: string): ({ text: string } | { href: string; text: string })[] {
  const pieces: ({ text: string } | { href: string; text: string })[] = [];
  const link = /\bhttps?:\/\/[^\s<>"']+/gi;
  let last = 0;
  for (const match of text.matchAll(link)) {
    let url = match[0];
    while (/[.,;:!?)\]]$/.test(url) && !(url.endsWith(')') && url.includes('('))) url = url.slice(0, -1);
    const at = match.index;
    if (at > last) pieces.push({ text: text.slice(last, at) });
    pieces.push(URL.canParse(url) ? { href: url, text: url } : { text: url });
    last = at + url.length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}

/** What a record's History shows beside the sync's changes: a note added or deleted, a tag put on or taken off. */
export type AnnotationEvent =
  | { kind: 'note_add' | 'note_delete'; at: string; by: string; on: NoteSubject; noteId: string }
  | { kind: 'tag_apply' | 'tag_remove'; at: string; by: string; tag: string };

/** What a list page's `meta.annotations` says of a row: its tags and whether it has notes. */
export type RowAnnotations = { tags: { name: string; colour: TagColour }[]; notes: boolean };
