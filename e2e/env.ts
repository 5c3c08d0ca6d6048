/** Ports and settings of the e2e servers, shared by the config and the specs. */
export const E2E = {
  port: 3210,
  sandboxPort: 4210,
  baseURL: 'http://127.0.0.1:3210',
  sandboxURL: 'http://127.0.0.1:4210',
  timeoutMs: 2_000,
  /** Written by the dashboard during the run; scanned for the key. */
  serverLog: '.data/e2e-dashboard.log',
} as const;

export const SANDBOX_KEYS = ['sk_sandbox_demo', 'sk_sandbox_other'] as const;
