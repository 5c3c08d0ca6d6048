import pkg from '@/package.json';
import { openApiDocument } from '@/lib/api/openapi';
import { apiRoute } from '@/lib/server/route';

/** `GET /api/openapi.json` (gated): the OpenAPI 3.1 description of every `/api` route. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/openapi.json',
  subject: 'collections',
  read: async () => Response.json(openApiDocument(pkg.version), { headers: { 'Cache-Control': 'private, no-store' } }),
});
