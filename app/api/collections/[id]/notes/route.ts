import { collectionIdParams, noteBody } from '@/lib/api/inputs';
import { addNote, collectionNotes } from '@/lib/server/reads/notes';
import { apiRoute } from '@/lib/server/route';

/** `GET|POST /api/collections/{id}/notes` (contract section 16): its notes and its contact's; add one. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/collections/[id]/notes',
  subject: 'collection',
  params: collectionIdParams,
  read: ({ params }, context, rt) => collectionNotes(rt, context, params.id),
  write: {
    POST: {
      body: noteBody,
      run: ({ params, body }, context, rt) => addNote(rt, context, 'collection', params.id, body.text),
    },
  },
});
