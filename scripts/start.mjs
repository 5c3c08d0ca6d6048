#!/usr/bin/env node
/**
 * `npm start` / `npm run dev`: one command from a fresh clone to a working
 * dashboard. Builds when the build is missing or older than the sources,
 * starts the sandbox when API_BASE_URL is unset, then serves the dashboard.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { exited, runBin } from './run-bin.mjs';

const dev = process.argv.includes('--dev');
const port = process.env.PORT || '3000';
const sandboxPort = process.env.SANDBOX_PORT || '4010';
const useSandbox = !process.env.API_BASE_URL;
const children = [];
/** A child this script stops with itself. */
const track = (child) => (children.push(child), child);

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function buildIsStale() {
  const marker = '.next/BUILD_ID';
  if (!existsSync(marker)) return true;
  const built = statSync(marker).mtimeMs;
  const sources = ['app', 'components', 'lib', 'public'].filter(existsSync).map(newestSource);
  const configs = ['next.config.mjs', 'package-lock.json', 'postcss.config.mjs', 'proxy.ts', 'instrumentation.ts']
    .filter(existsSync)
    .map((f) => statSync(f).mtimeMs);
  return Math.max(...sources, ...configs) > built;
}

/**
 * `next build` without its type-check pass (BUILD_SKIP_TYPECHECK, read by next.config.mjs): a first start
 * waits for the build alone; `npm test`, `npm run build` and CI keep the check. Next's phases are passed
 * through, and a quiet stretch (the server's compile is one long step) says how long it has been.
 */
async function build() {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  console.log('> Building the dashboard (first start, or sources changed; about 1-2 minutes)…');
  const child = track(
    runBin('next', ['build'], {
      env: { ...process.env, BUILD_SKIP_TYPECHECK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let heard = Date.now();
  child.stdout.on('data', (d) => ((heard = Date.now()), process.stdout.write(d)));
  child.stderr.on('data', (d) => ((heard = Date.now()), process.stderr.write(d)));
  const ticker = setInterval(() => {
    if (Date.now() - heard < 10_000) return;
    console.log(`> Still building… ${seconds()} s`);
    heard = Date.now();
  }, 1000);
  const code = await exited(child);
  clearInterval(ticker);
  if (code === 0) console.log(`> Built in ${seconds()} s`);
  return code;
}

async function sandboxUp() {
  try {
    const res = await fetch(`http://127.0.0.1:${sandboxPort}/__sandbox/health`, { signal: AbortSignal.timeout(500) });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Stops the sandbox and Next, waits until they are gone (their ports free), then exits. Once: a child's exit
 * while stopping is part of the stop. A child that outlives 10 s of SIGTERM is killed.
 */
let stopping = null;
function stopAll(code) {
  stopping ??= (async () => {
    const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
    for (const child of running) child.kill('SIGTERM');
    const force = setTimeout(() => running.forEach((child) => child.kill('SIGKILL')), 10_000);
    await Promise.all(running.map(exited));
    clearTimeout(force);
    process.exit(code);
  })();
  return stopping;
}

/** One field of a process as `ps` reads it, or null (no such process, or no `ps`). */
function psField(pid, field) {
  try {
    return execFileSync('ps', ['-o', `${field}=`, '-p', String(pid)], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** npm's own process when it ran this script in a shell (npm → sh -c → this), else null. */
function npmProcess() {
  if (!process.env.npm_lifecycle_event) return null;
  const pid = Number(psField(process.ppid, 'ppid'));
  return pid > 1 && /^npm\b/.test(psField(pid, 'args') ?? '') ? pid : null;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

// Whichever process a user stops (npm's, which does not pass every signal on and cannot pass SIGKILL, or this
// one), everything stops: this script on its own signals, and when its parent or npm is gone.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopAll(0));
const parent = process.ppid;
const npm = npmProcess();
setInterval(() => {
  if (process.ppid !== parent || (npm && !alive(npm))) stopAll(0);
}, 500).unref();

// The configuration and its access gate, checked before anything is built or started: a refusal is the last line
// printed, never followed by "Ready" (the server checks again when started on its own).
{
  const code = await exited(
    track(
      runBin('tsx', ['--conditions=react-server', 'scripts/preflight.ts'], {
        env: { ...process.env, PORT: port, SANDBOX_PORT: sandboxPort },
      }),
    ),
  );
  if (code !== 0) await stopAll(code);
}

if (!dev && buildIsStale()) {
  const code = await build();
  if (code !== 0) await stopAll(code);
}

if (useSandbox) {
  if (await sandboxUp()) {
    console.log(`> Using the sandbox already running on port ${sandboxPort}`);
  } else {
    // Activity on by default: a live sandbox gives the search index something to follow.
    const activity = process.env.SANDBOX_ACTIVITY ?? '1';
    const sandbox = track(
      runBin('tsx', ['sandbox/main.ts'], {
        env: { ...process.env, SANDBOX_PORT: sandboxPort, SANDBOX_ACTIVITY: activity },
      }),
    );
    sandbox.on('exit', (code) => {
      console.error('> The sandbox stopped');
      stopAll(code || 1);
    });
    const deadline = Date.now() + 60_000;
    while (!(await sandboxUp())) {
      if (Date.now() > deadline) {
        console.error('> The sandbox did not start within 60 s');
        await stopAll(1);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

// An idle connection is kept 65 s, not Node's 5: a load balancer keeps its own for 60 s (AWS ALB's default) and
// reuses one the server may close as a request arrives (a 502 at the balancer). Longer than the balancer's, always.
const keepAlive = process.env.KEEP_ALIVE_TIMEOUT || '65000';
const next = track(
  runBin('next', dev ? ['dev', '-p', port] : ['start', '-p', port, '--keepAliveTimeout', keepAlive], {
    env: { ...process.env, PORT: port, SANDBOX_PORT: sandboxPort },
  }),
);
next.on('exit', (code) => stopAll(code ?? 1));
console.log(
  `> Collections Console on http://localhost:${port} ${useSandbox ? '(Sandbox data: the embedded upstream on port ' + sandboxPort + ')' : '(upstream: ' + new URL(process.env.API_BASE_URL).origin + ')'}`,
);
