import { auditQuery } from '@/lib/api/inputs';
import { readAudit } from '@/lib/server/reads/audit';
import { apiRoute } from '@/lib/server/route';

/** `GET /api/audit` (admins): the audit log, filtered and paginated (contract section 10). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/audit',
  subject: 'collections',
  admin: true,
  query: auditQuery,
  read: ({ query }, context, rt) => readAudit(rt, context, query),
});
