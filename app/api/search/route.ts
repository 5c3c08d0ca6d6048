import { searchQuery } from '@/lib/api/inputs';
import { apiRoute } from '@/lib/server/route';
import { EVERY_ACCOUNT } from '@/lib/server/accounts/config';
import { searchCollections } from '@/lib/server/reads/collections';
import { searchEveryAccount } from '@/lib/server/reads/search-all';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/search',
  subject: 'collections',
  query: searchQuery,
  everyAccount: true,
  read: ({ query, request }, context, rt) =>
    new URL(request.url).searchParams.get('account') === EVERY_ACCOUNT
      ? searchEveryAccount(rt, context, { ...query, q: query.q! })
      : searchCollections(rt, context, { ...query, q: query.q! }),
});
