import pkg from '@/package.json';
import { openRoute } from '@/lib/server/route';

/**
 * `GET /api/health` (liveness; not gated): the process answers. No upstream
 * call, nothing but `ok` and the version (contract section 11).
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = openRoute(() =>
  Response.json({ status: 'success', message: 'ok', data: { version: pkg.version } }),
);
