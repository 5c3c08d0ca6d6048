import { tagChangeBody, tagNameParams } from '@/lib/api/inputs';
import { changeTag, deleteTag, getTag } from '@/lib/server/reads/tags';
import { apiRoute } from '@/lib/server/route';

/** `GET /api/tags/{name}`, and `PUT`/`DELETE` (admins): one tag (contract section 16). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/tags/[name]',
  subject: 'collections',
  params: tagNameParams,
  read: ({ params }, context, rt) => getTag(rt, context, params.name),
  write: {
    PUT: { body: tagChangeBody, run: ({ params, body }, context, rt) => changeTag(rt, context, params.name, body) },
    DELETE: { run: ({ params }, context, rt) => deleteTag(rt, context, params.name) },
  },
});
