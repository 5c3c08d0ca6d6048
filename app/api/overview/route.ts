import { overviewQuery } from '@/lib/api/inputs';
import { apiRoute } from '@/lib/server/route';
import { indexOverview } from '@/lib/server/search-index/reads';

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({
  subject: 'collections',
  query: overviewQuery,
  read: async ({ query }, context) => {
    const { index: _index, ...body } = await indexOverview(context, query.range);
    return body;
  },
});
