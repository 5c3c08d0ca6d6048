/**
 * Ports and settings of the e2e servers, shared by the config, the server
 * script and the specs. E2E_PORT / E2E_SANDBOX_PORT move them when needed.
 * Specs with servers of their own add an offset to both, one range each (they run in parallel):
 * security +7..+9, operate +10, index-live +20..+28, export-live +30, counts +33, watch +40, replicas +50..+51.
 */
const port = Number(process.env.E2E_PORT ?? 3210);
const sandboxPort = Number(process.env.E2E_SANDBOX_PORT ?? 4210);
/** A second dashboard on the same build and sandbox, with the access gate on. */
const gatedPort = port + 1;
/** A third, signing people in with OpenID Connect against a real provider on localhost (e2e/oidc-provider.ts). */
const oidcPort = port + 2;
const oidcProviderPort = sandboxPort + 3;

export const E2E = {
  port,
  sandboxPort,
  baseURL: `http://127.0.0.1:${port}`,
  gatedPort,
  gatedURL: `http://127.0.0.1:${gatedPort}`,
  gatedUser: { username: 'ada', password: 'correct:horse battery' },
  sandboxURL: `http://127.0.0.1:${sandboxPort}`,
  oidcPort,
  oidcURL: `http://127.0.0.1:${oidcPort}`,
  oidcProviderPort,
  /** localhost, not 127.0.0.1: the provider's cookies stay apart from the dashboards'. */
  oidcIssuer: `http://localhost:${oidcProviderPort}`,
  oidc: {
    clientId: 'collections-console',
    clientSecret: 'e2e-client-secret',
    sessionSecret: 'e2e-session-secret-0123456789abcdef',
  },
  timeoutMs: 2_000,
  /** The gated dashboard's METRICS_TOKEN (the open one has none: its /api/metrics is a 404). */
  metricsToken: 'e2e-metrics-token-0123456789',
  /** Written by the dashboard during the run; scanned for the key. */
  serverLog: `.data/e2e-dashboard-${port}.log`,
} as const;

export const SANDBOX_KEYS = ['sk_sandbox_demo', 'sk_sandbox_other'] as const;
