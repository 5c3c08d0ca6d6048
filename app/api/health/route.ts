import pkg from '@/package.json';

/**
 * `GET /api/health` (liveness; not gated): the process answers. No upstream
 * call, nothing but `ok` and the version (contract section 11).
 */
export function GET() {
  return Response.json(
    { status: 'success', message: 'ok', data: { version: pkg.version } },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}
