import { noteIdParams } from '@/lib/api/inputs';
import { deleteNote, getNote } from '@/lib/server/reads/notes';
import { apiRoute } from '@/lib/server/route';

/** `GET /api/notes/{noteId}`, `DELETE` (contract section 16): its author within 15 minutes, an admin any time. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/notes/[noteId]',
  subject: 'collection',
  params: noteIdParams,
  read: ({ params }, context, rt) => getNote(rt, context, params.noteId),
  write: { DELETE: { run: ({ params }, context, rt) => deleteNote(rt, context, params.noteId) } },
});
