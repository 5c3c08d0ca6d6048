import { searchQuery } from '@/lib/api/inputs';
import { apiRoute } from '@/lib/server/route';
import { searchCollections } from '@/lib/server/reads/collections';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/search',
  subject: 'collections',
  query: searchQuery,
  read: ({ query }, context, rt) => searchCollections(rt, context, { ...query, q: query.q! }),
});
