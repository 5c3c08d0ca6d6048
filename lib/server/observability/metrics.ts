import 'server-only';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The dashboard's Prometheus metrics (contract section 11), one registry per
 * process (the runtime builds it). Labels are bounded sets only: a route's
 * pattern (never its path), a method, a status, an upstream operation and an
 * error code; never an id, a query or anything a user typed. Recording is on
 * only when METRICS_TOKEN is set: off, every call is a no-op.
 */

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function build() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new Counter({
      name: 'dashboard_http_requests_total',
      help: 'Requests answered by the dashboard API, by route pattern, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    requestSeconds: new Histogram({
      name: 'dashboard_http_request_duration_seconds',
      help: 'Time to answer a dashboard API request (to the first byte of a download)',
      labelNames: ['route', 'method'] as const,
      buckets: SECONDS,
      registers: [registry],
    }),
    pages: new Counter({
      name: 'dashboard_page_requests_total',
      help: 'Page requests (documents, RSC and prefetch) as the gate decided them: passed to the page, redirected, refused',
      labelNames: ['route', 'outcome'] as const,
      registers: [registry],
    }),
    upstream: new Counter({
      name: 'dashboard_upstream_requests_total',
      help: 'Upstream reads by operation and outcome (ok, or the error code the dashboard mapped it to)',
      labelNames: ['operation', 'outcome'] as const,
      registers: [registry],
    }),
    upstreamSeconds: new Histogram({
      name: 'dashboard_upstream_request_duration_seconds',
      help: 'Time of an upstream read, retries included',
      labelNames: ['operation'] as const,
      buckets: SECONDS,
      registers: [registry],
    }),
    upstreamRetries: new Counter({
      name: 'dashboard_upstream_retries_total',
      help: 'Upstream attempts repeated after a transient failure',
      labelNames: ['operation'] as const,
      registers: [registry],
    }),
    upstreamTimeouts: new Counter({
      name: 'dashboard_upstream_timeouts_total',
      help: 'Upstream reads that ran past API_TIMEOUT_MS',
      labelNames: ['operation'] as const,
      registers: [registry],
    }),
  };
}

/** The page routes, as their patterns: anything else is `other` (a label never takes a path as it came). */
const PAGE_ROUTES: [RegExp, string][] = [
  [/^\/collections\/[^/]+$/, '/collections/[id]'],
  [/^\/providers\/[^/]+$/, '/providers/[id]'],
  [/^\/(collections|search|overview|lookup|audit|status)$/, ''],
  [/^\/$/, '/'],
];

export function pageRoute(pathname: string): string {
  for (const [pattern, name] of PAGE_ROUTES) if (pattern.test(pathname)) return name || pathname;
  return 'other';
}

/** The last five minutes of upstream reads are kept for `/status` whether or not metrics are on (bounded). */
const WINDOW_MS = 5 * 60_000;
const RECENT_MAX = 20_000;

export function createMetrics({ enabled, now = Date.now }: { enabled: boolean; now?: () => number }) {
  const m = build();
  const recent: { at: number; ms: number; outcome: string; account?: string }[] = [];
  /** When a person last asked for something (an API request or a page; probes and scrapes are not people). */
  let lastUserAt = Number.NEGATIVE_INFINITY;
  return {
    registry: m.registry,
    /** A finished API request. `route` is the handler's pattern, e.g. `/api/collections/[id]`. */
    recordRequest(route: string, method: string, status: number, seconds: number) {
      lastUserAt = now();
      if (!enabled) return;
      m.requests.inc({ route, method, status: String(status) });
      m.requestSeconds.observe({ route, method }, seconds);
    },
    /** A page request as proxy.ts decided it. */
    recordPage(pathname: string, outcome: 'passed' | 'redirected' | 'refused') {
      if (outcome === 'passed') lastUserAt = now();
      if (!enabled) return;
      m.pages.inc({ route: pageRoute(pathname), outcome });
    },
    /** A finished upstream read: its operation (list, collection, provider), outcome, time and retries. */
    recordUpstream(operation: string, outcome: string, seconds: number, attempts: number, account?: string) {
      recent.push({ at: now(), ms: seconds * 1000, outcome, account });
      if (recent.length > RECENT_MAX) recent.splice(0, recent.length - RECENT_MAX);
      if (!enabled) return;
      m.upstream.inc({ operation, outcome });
      m.upstreamSeconds.observe({ operation }, seconds);
      if (attempts > 1) m.upstreamRetries.inc({ operation }, attempts - 1);
      if (outcome === 'upstream_timeout') m.upstreamTimeouts.inc({ operation });
    },
    /**
     * Whether someone used the dashboard in the last `ms` (the index's rescans give way then). Operating
     * routes (`/api/health`, `/api/ready`, `/api/metrics`: openRoute) are not recorded, so probes never count.
     */
    usersWithin(ms: number, at = now()): boolean {
      return at - lastUserAt <= ms;
    },
    /** Latency percentiles and outcomes of the upstream reads of the last five minutes. */
    upstreamWindow(at = now(), account?: string) {
      while (recent.length && recent[0]!.at < at - WINDOW_MS) recent.shift();
      // One account's reads (several accounts: each has its own key, its own errors), or all of them.
      const reads = account === undefined ? recent : recent.filter((x) => x.account === account);
      const ms = reads.map((x) => x.ms).sort((a, b) => a - b);
      const pick = (p: number) => (ms.length ? ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]! : null);
      const outcomes: Record<string, number> = {};
      for (const x of reads) outcomes[x.outcome] = (outcomes[x.outcome] ?? 0) + 1;
      return { reads: reads.length, p50Ms: pick(0.5), p95Ms: pick(0.95), outcomes };
    },
    /** A gauge read when Prometheus scrapes (the index, the audit log): registered once, by the runtime. */
    registerGauge(name: string, help: string, labelNames: string[], collect: (gauge: Gauge) => Promise<void> | void) {
      if (m.registry.getSingleMetric(name)) return;
      new Gauge({
        name,
        help,
        labelNames,
        registers: [m.registry],
        async collect() {
          await collect(this);
        },
      });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
