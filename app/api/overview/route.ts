import { overviewQuery } from '@/lib/api/inputs';
import { apiRoute } from '@/lib/server/route';
import { indexOverview } from '@/lib/server/reads/collections';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/overview',
  subject: 'collections',
  query: overviewQuery,
  // The page also gets the index's status; the API's envelope is the contract's. `currency` narrows perDay to
  // that currency's rows (the table's figures still cover every currency); `tag` narrows every figure.
  read: async ({ query }, context, rt) => {
    const perDayOf = query.currency === undefined ? 'every' : { currency: query.currency };
    const { status, message, data } = await indexOverview(rt, context, query.range, perDayOf, query.tag);
    return { status, message, data };
  },
});
