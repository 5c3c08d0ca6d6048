import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { E2E } from './env';

/**
 * A clean stop (issue 75): `npm start` stops Next and the sandbox whichever process a user stops, npm's or
 * its script's, by SIGTERM, SIGINT or SIGHUP, and when npm is killed outright. Each case starts the real
 * `npm start` (on the build the suite made) on ports of its own, waits until the dashboard answers, stops
 * one process and then finds both ports closed and no process of the tree left.
 */
test.describe.configure({ mode: 'parallel' });

// The suite runs on the build `npm run test:e2e` has just made: a source saved since (a test file under lib/)
// must not make seven starts at once rebuild it under the suite's running servers.
test.beforeAll(() => {
  const now = new Date();
  utimesSync('.next/BUILD_ID', now, now);
});

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** The pids under `root`, every generation (ps over the whole table: Linux and macOS alike). */
function descendants(root: number): number[] {
  const rows = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of rows) {
      if (parent !== pid) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const cases: { who: 'npm' | 'script'; signal: NodeJS.Signals }[] = [
  { who: 'npm', signal: 'SIGTERM' },
  { who: 'npm', signal: 'SIGINT' },
  { who: 'npm', signal: 'SIGHUP' },
  { who: 'npm', signal: 'SIGKILL' },
  { who: 'script', signal: 'SIGTERM' },
  { who: 'script', signal: 'SIGINT' },
  { who: 'script', signal: 'SIGHUP' },
];

for (const [i, { who, signal }] of cases.entries()) {
  test(`${signal} to ${who === 'npm' ? "npm's process" : 'the start script'} stops Next and the sandbox`, async () => {
    test.setTimeout(120_000);
    const port = E2E.port + 11 + i;
    const sandboxPort = E2E.sandboxPort + 11 + i;
    const dir = mkdtempSync(join(tmpdir(), 'clean-stop-'));
    const npm = spawn('npm', ['start'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        LOG_FORMAT: 'json',
        PORT: String(port),
        SANDBOX_PORT: String(sandboxPort),
        SANDBOX_DB: join(dir, 'sandbox.sqlite'),
        SANDBOX_ACTIVITY: '0',
        INDEX_PATH: join(dir, 'index.sqlite'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tree: number[] = [];
    let output = '';
    npm.stdout.on('data', (d) => (output += d));
    npm.stderr.on('data', (d) => (output += d));
    try {
      await expect
        .poll(
          async () =>
            (await fetch(`http://127.0.0.1:${port}/api/ready`).catch(() => null))?.status ?? output.slice(-300),
          { timeout: 90_000, message: 'npm start answers' },
        )
        .toBe(200);
      tree.push(...descendants(npm.pid!));
      expect(await listening(sandboxPort)).toBe(true);
      const script = Number(
        execFileSync('ps', ['-A', '-o', 'pid=,args='], { encoding: 'utf8' })
          .split('\n')
          .map((line) => line.trim().split(/\s+/))
          .find(
            ([pid, bin, script]) => tree.includes(Number(pid)) && /node$/.test(bin!) && script === 'scripts/start.mjs',
          )![0],
      );
      process.kill(who === 'npm' ? npm.pid! : script, signal);

      await expect.poll(() => listening(port), { timeout: 20_000, message: 'the dashboard port closed' }).toBe(false);
      await expect
        .poll(() => listening(sandboxPort), { timeout: 20_000, message: 'the sandbox port closed' })
        .toBe(false);
      await expect.poll(() => tree.filter(alive), { timeout: 20_000, message: 'no process left' }).toEqual([]);
    } finally {
      for (const pid of [...tree, npm.pid!]) if (alive(pid)) process.kill(pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
