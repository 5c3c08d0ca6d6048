import { viewIdParams, viewUpdateBody } from '@/lib/api/inputs';
import { deleteView, getView, updateView } from '@/lib/server/reads/views';
import { apiRoute } from '@/lib/server/route';

/** `GET|PUT|DELETE /api/views/{id}` (contract section 13): another owner's personal view or another account's is 404. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/views/[id]',
  subject: 'collections',
  params: viewIdParams,
  read: ({ params }, context, rt) => getView(rt, context, params.id),
  write: {
    PUT: { body: viewUpdateBody, run: ({ params, body }, context, rt) => updateView(rt, context, params.id, body) },
    DELETE: { run: ({ params }, context, rt) => deleteView(rt, context, params.id) },
  },
});
