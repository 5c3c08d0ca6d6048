/**
 * `npm run image:smoke` (CI's last step): the container image's server, started exactly as the image starts
 * it, and the deployment smoke (e2e/remote.spec.ts, `@remote`) run against it. Builds the standalone server
 * as the Dockerfile does (NEXT_OUTPUT=standalone; into .next-image, beside the usual build), bundles the
 * sandbox as it does, lays the files out as the image's /app (a folder of the system's temporary one, away
 * from this checkout: nothing above it resolves a package, so what the image lacks is missed here too; a
 * server that reached for this checkout's tsx and sources passed here and failed in a container), starts `node start.mjs`
 * there with the image's environment, asks the image's HEALTHCHECK command, runs the smoke, stops it with
 * SIGTERM. Then, when a container engine runs on this machine, builds the image itself and smokes it too;
 * where none can, says why (CI machines here have a docker client but no daemon, and no registry to pull
 * the base image from).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binPath } from './run-bin.mjs';

const ROOT = join(tmpdir(), `collections-console-image-${process.pid}`);
const DIST = '.next-image';
const PORT = Number(process.env.IMAGE_SMOKE_PORT ?? 3790);
const SANDBOX_PORT = PORT + 1000;
const base = `http://127.0.0.1:${PORT}`;

const step = (text: string) => console.log(`\n=== image smoke: ${text}`);
const node = (args: string[], options: Parameters<typeof execFileSync>[2] = {}) =>
  execFileSync(process.execPath, args, { stdio: 'inherit', ...options });

/** Waits until `base` answers /api/ready, at most `ms`; `stopped` says why waiting is pointless now. */
async function ready(ms: number, stopped: () => string | null, late: () => Error) {
  const deadline = Date.now() + ms;
  while (
    !(await fetch(`${base}/api/ready`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    const why = stopped();
    if (why) throw new Error(why);
    if (Date.now() > deadline) throw late();
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The deployment smoke (e2e/remote.spec.ts, `@remote`) against what answers on `base`. */
const smoke = () =>
  node([binPath('@playwright/test', 'playwright'), 'test', '--config', 'playwright.remote.config.ts'], {
    env: { ...process.env, E2E_BASE_URL: base },
  });

step('the standalone build (NEXT_OUTPUT=standalone), as the Dockerfile builds it');
// A build into another folder adds that folder's types to tsconfig.json: put it back as it was.
const tsconfig = readFileSync('tsconfig.json', 'utf8');
try {
  node([binPath('next'), 'build'], {
    env: { ...process.env, NEXT_OUTPUT: 'standalone', NEXT_DIST_DIR: DIST, NEXT_TELEMETRY_DISABLED: '1' },
  });
} finally {
  writeFileSync('tsconfig.json', tsconfig);
}

step(`the image's /app laid out in ${ROOT}`);
rmSync(ROOT, { recursive: true, force: true });
// Symlinks as they are (relative): the server's hashed externals (.next-image/node_modules) point into them.
cpSync(join(DIST, 'standalone'), ROOT, { recursive: true, verbatimSymlinks: true });
cpSync(join(DIST, 'static'), join(ROOT, DIST, 'static'), { recursive: true });
cpSync('scripts/image-start.mjs', join(ROOT, 'start.mjs'));
mkdirSync(join(ROOT, '.data'), { recursive: true });
// esbuild's bin is its native executable once installed (a JS shim only before): run it as it is.
execFileSync(
  binPath('esbuild'),
  [
    'sandbox/main.ts',
    '--bundle',
    '--platform=node',
    '--format=esm',
    '--target=node20',
    '--external:better-sqlite3',
    `--outfile=${join(ROOT, 'sandbox.mjs')}`,
    '--log-level=warning',
  ],
  { stdio: 'inherit' },
);

step(`node start.mjs in it (the image's CMD), on port ${PORT}, the sandbox beside it (API_BASE_URL unset)`);
// The image's environment (Dockerfile ENV), nothing of this shell's but PATH and HOME.
const server = spawn(process.execPath, ['start.mjs'], {
  cwd: ROOT,
  env: {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: String(PORT),
    HOSTNAME: '127.0.0.1',
    SANDBOX_PORT: String(SANDBOX_PORT),
    LOG_FORMAT: 'json',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
server.stdout.on('data', (d) => (output += d));
server.stderr.on('data', (d) => (output += d));
let failed = false;
try {
  await ready(
    90_000,
    () => (server.exitCode !== null ? `the server stopped:\n${output}` : null),
    () => new Error(`the server did not get ready:\n${output}`),
  );
  step("the image's HEALTHCHECK command");
  const health = spawnSync(
    process.execPath,
    [
      '-e',
      "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))",
    ],
    { env: { ...process.env, PORT: String(PORT) } },
  );
  if (health.status !== 0) throw new Error('the HEALTHCHECK command failed');
  console.log('healthy');

  step('the deployment smoke (@remote) against it');
  smoke();
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  server.kill('SIGTERM');
  const stopped = await Promise.race([
    new Promise<boolean>((r) => server.once('exit', () => r(true))),
    new Promise<boolean>((r) => setTimeout(() => r(false), 15_000)),
  ]);
  if (!stopped) {
    failed = true;
    console.error('the server did not stop within 15 s of SIGTERM');
    server.kill('SIGKILL');
  }
}
// The dashboard never prints a key. (The demo sandbox's own banner names its public demo keys, as it does for
// `npm start`: that line is the sandbox's, not the dashboard's.)
const leaking = output
  .split('\n')
  .filter((line) => line.includes('sk_sandbox_') && !line.startsWith('[sandbox] upstream API on '));
if (leaking.length) {
  failed = true;
  console.error(`the server's output carries a key, in ${leaking.length} line(s)`);
}

step('the image itself');
const engine = ['docker', 'podman'].find((tool) => spawnSync(tool, ['info'], { stdio: 'ignore' }).status === 0);
if (!engine) {
  const why = ['docker', 'podman'].map((tool) => {
    const r = spawnSync(tool, ['info'], { encoding: 'utf8' });
    return r.error ? `${tool}: not installed` : `${tool}: ${(r.stderr || r.stdout).trim().split('\n').at(-1)}`;
  });
  console.log(
    `not built: no container engine runs on this machine (${why.join('; ')}). The Dockerfile's server was smoked above as the image starts it.`,
  );
} else if (failed) {
  console.log('not built: the standalone server failed above');
} else if (spawnSync(engine, ['pull', 'node:20-bookworm-slim'], { stdio: 'inherit' }).status !== 0) {
  // An engine with no registry to pull the base image from (podman on a machine without internet).
  console.log(`not built: ${engine} runs but cannot pull the base image (node:20-bookworm-slim)`);
} else {
  execFileSync(engine, ['build', '-t', 'collections-console:smoke', '.'], { stdio: 'inherit' });
  const id = execFileSync(engine, ['run', '-d', '-p', `${PORT}:3000`, 'collections-console:smoke'], {
    encoding: 'utf8',
  }).trim();
  try {
    await ready(
      120_000,
      () => null,
      () => new Error('the container did not get ready'),
    );
    smoke();
  } catch (error) {
    failed = true;
    console.error(error instanceof Error ? error.message : error);
  } finally {
    spawnSync(engine, ['rm', '-f', id], { stdio: 'inherit' });
  }
}
if (existsSync(DIST)) rmSync(DIST, { recursive: true, force: true });
rmSync(ROOT, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
