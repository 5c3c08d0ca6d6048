import { exportQuery } from '@/lib/api/inputs';
import { exportCollections } from '@/lib/server/export/export';
import { apiRoute } from '@/lib/server/route';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/export/collections.csv',
  subject: 'collections',
  download: true,
  query: exportQuery,
  read: ({ query, request }, context, rt) => exportCollections(rt, context, query, request.signal),
});
