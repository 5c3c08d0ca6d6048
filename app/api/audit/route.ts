import { z } from 'zod';
import { parseAuditQuery } from '@/lib/api/audit';
import { readAudit } from '@/lib/server/reads/audit';
import { apiRoute } from '@/lib/server/route';

const auditQuery = z.instanceof(URLSearchParams).transform((search, ctx) => {
  const parsed = parseAuditQuery(search);
  if (parsed.ok) return parsed.value;
  ctx.addIssue({ code: 'custom', path: [parsed.param], message: `Invalid ${parsed.param}: ${parsed.message}` });
  return z.NEVER;
});

/** `GET /api/audit` (admins): the audit log, filtered and paginated (contract section 10). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/audit',
  subject: 'collections',
  admin: true,
  query: auditQuery,
  read: ({ query }, context) => readAudit(context, query),
});
