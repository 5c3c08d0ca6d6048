import { contactIdParams, noteBody } from '@/lib/api/inputs';
import { addNote, contactNotes } from '@/lib/server/reads/notes';
import { apiRoute } from '@/lib/server/route';

/** `GET|POST /api/contacts/{id}/notes` (contract section 16): a contact's notes, shown on each of its collections. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/contacts/[id]/notes',
  subject: 'contact',
  params: contactIdParams,
  read: ({ params }, context, rt) => contactNotes(rt, context, params.id),
  write: {
    POST: {
      body: noteBody,
      run: ({ params, body }, context, rt) => addNote(rt, context, 'contact', params.id, body.text),
    },
  },
});
