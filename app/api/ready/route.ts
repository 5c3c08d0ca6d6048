import { readiness } from '@/lib/server/observability/ready';

/**
 * `GET /api/ready` (readiness; not gated): 200 when the upstream answers with
 * the key and the index is not failing, else 503; which check failed, nothing
 * more (no latency, no URLs, no error text).
 */
export async function GET() {
  const { ok, checks } = await readiness();
  return Response.json(
    ok
      ? { status: 'success', message: 'ready', data: { checks } }
      : { status: 'error', message: 'not ready', data: { checks } },
    { status: ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
  );
}
