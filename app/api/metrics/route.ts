import { sameSecret } from '@/lib/server/access';
import { getConfig } from '@/lib/server/env';
import { openRoute } from '@/lib/server/route';

/**
 * `GET /api/metrics`: Prometheus text, for `Authorization: Bearer <METRICS_TOKEN>`;
 * 404 when METRICS_TOKEN is unset (nothing is recorded then), 401 with a wrong
 * token (compared in constant time).
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = openRoute(async (request, rt) => {
  const token = getConfig().metricsToken;
  if (!token) return new Response('Not found', { status: 404 });
  const given = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
  if (!sameSecret(given, token))
    return new Response('Unauthorized', { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } });
  const { registry } = rt.metrics;
  return new Response(await registry.metrics(), {
    headers: { 'Content-Type': registry.contentType },
  });
});
