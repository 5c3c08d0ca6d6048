import type { Note } from '@/lib/api/annotations';
import { DateTime } from '@/components/ui/date-time';
import { EmptyState } from '@/components/ui/empty-state';
import { Section } from '@/components/ui/section';
import { AddNoteForm } from './add-note-form';
import { DeleteNoteButton } from './delete-note-button';
import { NoteText } from './note-text';

/**
 * "Notes" on a record or a contact's page (section 16): newest first, each with its author and time, a
 * contact's marked as the contact's; a deleted one leaves "Note deleted by <who>". Server markup; the form and
 * each delete button are the only islands.
 */
export function NotesCard({
  notes,
  path,
  subject,
  unavailable,
}: {
  notes: Note[] | null;
  /** Where a new note is sent. */
  path: string;
  subject: 'collection' | 'contact';
  /** Why notes cannot be read or kept here, when they cannot. */
  unavailable?: string | null;
}) {
  return (
    <Section
      title="Notes"
      id="notes"
      aside={notes?.length ? <span className="text-sm text-zinc-600 dark:text-zinc-400">{notes.length}</span> : null}
    >
      {notes === null ? (
        <EmptyState title="Notes are not available">{unavailable ?? 'Their database is not answering.'}</EmptyState>
      ) : notes.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No notes yet. What the team learns about this {subject === 'collection' ? 'collection' : 'contact'} stays here
          for the next person.
        </p>
      ) : (
        <ol aria-label="Notes, newest first" className="space-y-3">
          {notes.map((note) => (
            <li key={note.id} className="border-l-2 border-zinc-300 pl-3 dark:border-zinc-700">
              {note.deleted ? (
                <p className="text-sm italic text-zinc-600 dark:text-zinc-400">
                  Note deleted by {note.deleted.by} <DateTime iso={note.deleted.at} />
                </p>
              ) : (
                <>
                  <p className="flex flex-wrap items-center gap-x-2 text-xs text-zinc-600 dark:text-zinc-400">
                    <span className="font-medium text-zinc-800 dark:text-zinc-200">{note.author}</span>
                    <DateTime iso={note.createdAt} />
                    {subject === 'collection' && note.on === 'contact' ? (
                      <span className="tag tag-grey">Contact’s note</span>
                    ) : null}
                    {note.deletable ? <DeleteNoteButton id={note.id} author={note.author} /> : null}
                  </p>
                  <NoteText text={note.text ?? ''} />
                </>
              )}
            </li>
          ))}
        </ol>
      )}
      {unavailable ? null : (
        <AddNoteForm
          path={path}
          hint={
            subject === 'contact'
              ? 'Shown on each of this contact’s collections.'
              : 'For this collection; add a note on the contact’s page to show it on all of theirs.'
          }
        />
      )}
    </Section>
  );
}
