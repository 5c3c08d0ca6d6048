import 'server-only';
import { systemContext } from '../context';
import { listCollections } from '../data';
import type { Runtime } from '../runtime';

/**
 * Readiness (contract section 11): the upstream answers a one-row list with the
 * configured key within the timeout, and the index is not failing. The upstream
 * check is cached for 10 s, so probes from every load balancer cannot flood it;
 * concurrent probes share one check.
 */
const CACHE_MS = 10_000;
let upstream: { at: number; ok: Promise<boolean> } | null = null;

function upstreamOk(rt: Runtime, now: number): Promise<boolean> {
  if (!upstream || now - upstream.at >= CACHE_MS) {
    const ok = listCollections(rt, systemContext('ready'), { page: 1, limit: 1 }).then(
      () => true,
      () => false,
    );
    upstream = { at: now, ok };
  }
  return upstream.ok;
}

export async function readiness(rt: Runtime, now = Date.now()) {
  const [up, index] = await Promise.all([upstreamOk(rt, now), rt.index.status()]);
  // An index turned off is not a fault (the dashboard serves live pages without it); a failing one is.
  const checks = [
    { name: 'upstream' as const, ok: up },
    { name: 'index' as const, ok: index.state !== 'error' },
  ];
  return { ok: checks.every((c) => c.ok), checks };
}
