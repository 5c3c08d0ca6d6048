import { collectionIdParams } from '@/lib/api/inputs';
import { collectionHistory } from '@/lib/server/reads/collections';
import { apiRoute } from '@/lib/server/route';

/** `GET /api/collections/{id}/history` (contract section 14): the record's changes as the index saw them. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/collections/[id]/history',
  subject: 'collection',
  params: collectionIdParams,
  read: ({ params }, context, rt) => collectionHistory(rt, context, params.id),
});
