/**
 * The two servers of the e2e run (started by playwright.config.ts): the sandbox
 * with faults on, and the production build of the dashboard, whose output is
 * also kept in a file so a spec can prove the key never reaches a log.
 */
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { E2E } from './env';
import { runBin } from '../scripts/run-bin.mjs';

const which = process.argv[2];
const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', SANDBOX_PORT: String(E2E.sandboxPort) };
for (const name of [
  'API_BASE_URL',
  'API_KEY',
  'API_KEY_HEADER',
  'DASHBOARD_USERS',
  'DASHBOARD_OPEN',
  'AMOUNT_MINOR_UNITS',
  'INDEX',
  'INDEX_SECRET',
  'INDEX_PATH',
  'INDEX_SYNC_RPS',
  'INDEX_POLL_S',
  'SANDBOX_ACTIVITY',
  'DASHBOARD_URL',
  'DASHBOARD_ADMINS',
  'OIDC_ISSUER',
  'OIDC_CLIENT_ID',
  'OIDC_CLIENT_SECRET',
  'OIDC_ALLOWED_EMAILS',
  'OIDC_ALLOWED_DOMAINS',
  'SESSION_SECRET',
  'AUDIT_RETENTION_DAYS',
  'METRICS_TOKEN',
  'VIEWER_CONTACT_DETAILS',
])
  delete env[name];

let child: ChildProcess;
/** Files of a previous run go: every run starts from the seed and an empty index. */
const fresh = (path: string) => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  return path;
};

if (which === 'sandbox') {
  child = runBin('tsx', ['sandbox/main.ts'], {
    env: {
      ...env,
      SANDBOX_FAULTS: '1',
      SANDBOX_SLOW_MS: '20000',
      // The formula-injection rows the export's CSV guard is tested on (test-only: no newcomer's seed has them).
      SANDBOX_TEST_ROWS: '1',
      SANDBOX_DB: fresh(`.data/e2e-sandbox-${E2E.sandboxPort}.sqlite`),
    },
  });
} else if (which === 'dashboard' || which === 'gated' || which === 'oidc') {
  mkdirSync('.data', { recursive: true });
  const port = String(which === 'gated' ? E2E.gatedPort : which === 'oidc' ? E2E.oidcPort : E2E.port);
  const log = createWriteStream(which === 'dashboard' ? E2E.serverLog : E2E.serverLog.replace('.log', `-${which}.log`));
  // The OpenID Provider runs in this process, beside the dashboard that signs people in with it.
  if (which === 'oidc') await (await import('./oidc-provider')).startOidcProvider();
  const gate =
    which === 'gated'
      ? {
          DASHBOARD_USERS: `other:pw,${E2E.gatedUser.username}:${E2E.gatedUser.password}`,
          METRICS_TOKEN: E2E.metricsToken,
        }
      : which === 'oidc'
        ? {
            DASHBOARD_URL: E2E.oidcURL,
            OIDC_ISSUER: E2E.oidcIssuer,
            OIDC_CLIENT_ID: E2E.oidc.clientId,
            OIDC_CLIENT_SECRET: E2E.oidc.clientSecret,
            OIDC_ALLOWED_DOMAINS: 'example.com',
            OIDC_ALLOWED_EMAILS: 'ada@partner.test',
            SESSION_SECRET: E2E.oidc.sessionSecret,
            DASHBOARD_ADMINS: 'admin@example.com',
            // Viewers see contacts masked here (the default, full, is what the open dashboard shows).
            VIEWER_CONTACT_DETAILS: 'masked',
          }
        : {};
  // Node's default keep-alive of 5 s races a test's client reusing a socket idle that long (a read ECONNRESET, the
  // server closing as the request arrives); the tests' sockets idle for seconds between steps, never two minutes.
  child = runBin('next', ['start', '-p', port, '-H', '127.0.0.1', '--keepAliveTimeout', '120000'], {
    env: {
      ...env,
      ...gate,
      PORT: port,
      API_TIMEOUT_MS: String(E2E.timeoutMs),
      // One account, today's setup exactly (e2e/accounts.spec.ts runs the sandbox's two accounts of its own).
      API_KEY: 'sk_sandbox_demo',
      // Each dashboard its own index, fresh, polling often so tests see changes in seconds.
      INDEX_PATH: fresh(`.data/e2e-index-${port}.sqlite`),
      INDEX_POLL_S: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The log goes to a file only: the suite's output stays readable, and the teardown scans the file.
  for (const stream of [child.stdout!, child.stderr!]) stream.pipe(log, { end: false });
  child.on('exit', (code) => {
    if (code) process.stderr.write(readFileSync(log.path, 'utf8'));
  });
} else {
  console.error('usage: e2e/server.ts sandbox|dashboard|gated|oidc');
  process.exit(2);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
