import { apiRoute } from '@/lib/server/route';
import { indexStatus } from '@/lib/server/reads/collections';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/index/status',
  subject: 'collections',
  read: (_, context, rt) => indexStatus(rt, context),
});
