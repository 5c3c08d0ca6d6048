import { readiness } from '@/lib/server/reads/readiness';
import { openRoute } from '@/lib/server/route';

/**
 * `GET /api/ready` (readiness; not gated): 200 when the upstream answers with
 * the key and the index is not failing, else 503; which check failed, nothing
 * more (no latency, no URLs, no error text).
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = openRoute(async (_request, rt) => {
  const { ok, checks } = await readiness(rt);
  return Response.json(
    ok
      ? { status: 'success', message: 'ready', data: { checks } }
      : { status: 'error', message: 'not ready', data: { checks } },
    { status: ok ? 200 : 503 },
  );
});
