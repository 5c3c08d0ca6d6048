import { BULK_IDS_MAX } from '@/lib/api/annotations';
import { bulkTagBody, listQuery, tagNameParams } from '@/lib/api/inputs';
import { collectionsPage } from '@/lib/server/reads/collections';
import { tagCollections } from '@/lib/server/reads/tags';
import { apiRoute } from '@/lib/server/route';

/**
 * `GET /api/tags/{name}/collections` (its collections) and `POST` (contract section 16): one tag put on many collections, the ids given (up
 * to 1,000) or every row of a list state (up to 100,000); `data: { changed }`.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/tags/[name]/collections',
  subject: 'collections',
  params: tagNameParams,
  query: listQuery,
  // GET: the tag's collections, as `/api/collections?tag={name}` lists them (with the list's other parameters).
  read: ({ params, query }, context, rt) => collectionsPage(rt, context, { ...query, tag: [params.name] }),
  write: {
    POST: {
      body: bulkTagBody,
      // 1,000 ids of up to 132 characters each, quoted and comma-separated.
      maxBody: BULK_IDS_MAX * 136 + 1_024,
      run: ({ params, body }, context, rt) =>
        tagCollections(
          rt,
          context,
          params.name,
          'ids' in body ? { ids: body.ids } : { query: body.query.state, text: body.query.text },
        ),
    },
  },
});
