import { contactIdParams, listQuery } from '@/lib/api/inputs';
import { contactPage } from '@/lib/server/reads/contacts';
import { apiRoute } from '@/lib/server/route';

/**
 * `GET /api/contacts/{id}` (contract section 14): a contact's totals and its collections from the index, with
 * the list's parameters (filters, sort, q, page, limit).
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/contacts/[id]',
  subject: 'contact',
  params: contactIdParams,
  query: listQuery,
  read: ({ params, query }, context, rt) => contactPage(rt, context, params.id, query),
});
