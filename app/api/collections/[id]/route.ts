import { collectionIdParams } from '@/lib/api/inputs';
import { viewCollection } from '@/lib/server/reads/records';
import { apiRoute } from '@/lib/server/route';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/collections/[id]',
  subject: 'collection',
  params: collectionIdParams,
  read: ({ params }, context, rt) => viewCollection(rt, context, params.id),
});
