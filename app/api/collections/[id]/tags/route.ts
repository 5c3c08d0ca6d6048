import { collectionIdParams, collectionTagsBody } from '@/lib/api/inputs';
import { collectionTags, setCollectionTags } from '@/lib/server/reads/tags';
import { apiRoute } from '@/lib/server/route';

/** `GET|PUT /api/collections/{id}/tags` (contract section 16): a record's tags, set whole by anyone signed in. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/collections/[id]/tags',
  subject: 'collection',
  params: collectionIdParams,
  read: ({ params }, context, rt) => collectionTags(rt, context, params.id),
  write: {
    PUT: {
      body: collectionTagsBody,
      run: ({ params, body }, context, rt) => setCollectionTags(rt, context, params.id, body.tags),
    },
  },
});
