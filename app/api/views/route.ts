import { z } from 'zod';
import { viewCreateBody } from '@/lib/api/inputs';
import { createView, listViews } from '@/lib/server/reads/views';
import { apiRoute } from '@/lib/server/route';

const viewsQuery = z.instanceof(URLSearchParams).transform((search, ctx) => {
  const counts = search.getAll('counts');
  if (counts.length > 1 || (counts.length === 1 && !['0', '1'].includes(counts[0]!))) {
    ctx.addIssue({ code: 'custom', path: ['counts'], message: 'Invalid counts: counts must be 1 or 0, given once' });
    return z.NEVER;
  }
  return { counts: counts[0] === '1' };
});

/**
 * `GET /api/views` (the reader's views and the team's shared ones; `counts=1` adds each one's count from
 * the index, as of when) and `POST /api/views` (a new view): contract section 13.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/views',
  subject: 'collections',
  query: viewsQuery,
  read: ({ query }, context, rt) => listViews(rt, context, query),
  write: { POST: { body: viewCreateBody, run: ({ body }, context, rt) => createView(rt, context, body) } },
});
