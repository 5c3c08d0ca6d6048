import { collectionIdParams } from '@/lib/api/inputs';
import { getCollection } from '@/lib/server/data';
import { apiRoute } from '@/lib/server/route';

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({
  subject: 'collection',
  params: collectionIdParams,
  read: ({ params }, context) => getCollection(context, params.id),
});
