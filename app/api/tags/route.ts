import { tagCreateBody } from '@/lib/api/inputs';
import { createTag, listTags } from '@/lib/server/reads/tags';
import { apiRoute } from '@/lib/server/route';

/** `GET /api/tags` (the account's tags, each with how many collections hold it) and `POST` (admins): section 16. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/tags',
  subject: 'collections',
  read: (_input, context, rt) => listTags(rt, context),
  write: { POST: { body: tagCreateBody, run: ({ body }, context, rt) => createTag(rt, context, body) } },
});
