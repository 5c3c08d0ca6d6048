import { listQuery } from '@/lib/api/inputs';
import { collectionsPage } from '@/lib/server/reads/collections';
import { apiRoute } from '@/lib/server/route';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/collections',
  subject: 'collections',
  query: listQuery,
  read: ({ query }, context, rt) => collectionsPage(rt, context, query),
});
