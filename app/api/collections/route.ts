import { listQuery } from '@/lib/api/inputs';
import { listCollections } from '@/lib/server/data';
import { apiRoute } from '@/lib/server/route';

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({
  subject: 'collections',
  query: listQuery,
  read: ({ query }, context) => listCollections(context, query),
});
