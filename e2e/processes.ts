import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { binPath } from '../scripts/run-bin.mjs';
import { E2E } from './env';

/**
 * A server process of a spec's own (a dashboard with other settings, a sandbox
 * whose data the spec changes): a clean environment plus `env`, its output
 * kept for assertions, and a promise of its exit code.
 */
export function spawnProcess(script: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [script, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NEXT_TELEMETRY_DISABLED: '1',
      NODE_ENV: 'production',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/**
 * A sandbox (faults on, a database of its own, `sandboxEnv` on top) and a dashboard against it (an index of
 * its own in the same folder unless INDEX is off), on ports `offset` above the shared e2e ones, for a spec
 * whose tests change the upstream's data. `start` in `beforeAll` waits until both answer; `stop` in
 * `afterAll`. The sandbox is one process (tsx as a loader, not its CLI's child), so killing it takes it down.
 */
export function ownServers(
  name: string,
  offset: number,
  dashboardEnv: Record<string, string>,
  sandboxEnv: Record<string, string> = {},
) {
  const sandboxPort = E2E.sandboxPort + offset;
  const port = E2E.port + offset;
  const sandboxURL = `http://127.0.0.1:${sandboxPort}`;
  const baseURL = `http://127.0.0.1:${port}`;
  const children: ChildProcess[] = [];
  let dir = '';
  let dashboardOutput = () => '';
  return {
    sandboxURL,
    baseURL,
    /** The sandbox's process, for a test that kills it mid-way. */
    sandbox: () => children[0]!,
    /** What the dashboard printed so far (its log lines, and anything Next printed beside them). */
    dashboardOutput: () => dashboardOutput(),
    async start() {
      dir = mkdtempSync(join(tmpdir(), `${name}-`));
      const sandbox = spawnProcess('--import', ['tsx', 'sandbox/main.ts'], {
        SANDBOX_PORT: String(sandboxPort),
        SANDBOX_FAULTS: '1',
        SANDBOX_DB: join(dir, 'sandbox.sqlite'),
        ...sandboxEnv,
      });
      const dashboard = spawnProcess(binPath('next'), ['start', '-p', String(port), '-H', '127.0.0.1'], {
        SANDBOX_PORT: String(sandboxPort),
        INDEX_PATH: join(dir, 'index.sqlite'),
        // One account unless the spec says otherwise (API_KEY: '' serves the sandbox's two).
        API_KEY: 'sk_sandbox_demo',
        ...dashboardEnv,
      });
      dashboardOutput = dashboard.output;
      children.push(sandbox.child, dashboard.child);
      // A gated dashboard answers its reads 401: it is up once its health probe answers.
      const gated = Boolean(dashboardEnv.OIDC_ISSUER || dashboardEnv.DASHBOARD_USERS);
      const probe = gated ? `${baseURL}/api/health` : `${baseURL}/api/collections?limit=1`;
      for (const url of [`${sandboxURL}/__sandbox/health`, probe]) {
        await expect.poll(async () => (await fetch(url).catch(() => null))?.status, { timeout: 60_000 }).toBe(200);
      }
    },
    async stop() {
      for (const child of children) child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
