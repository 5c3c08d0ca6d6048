import { overviewQuery } from '@/lib/api/inputs';
import { apiRoute } from '@/lib/server/route';
import { indexOverview } from '@/lib/server/reads/collections';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/overview',
  subject: 'collections',
  query: overviewQuery,
  // The page also gets the index's status; the API's envelope is the contract's.
  read: async ({ query }, context, rt) => {
    const { status, message, data } = await indexOverview(rt, context, query.range);
    return { status, message, data };
  },
});
