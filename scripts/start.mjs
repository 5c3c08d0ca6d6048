#!/usr/bin/env node
/**
 * `npm start` / `npm run dev`: one command from a fresh clone to a working
 * dashboard. Builds when the build is missing or older than the sources,
 * starts the sandbox when API_BASE_URL is unset, then serves the dashboard.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { exited, runBin } from './run-bin.mjs';

const dev = process.argv.includes('--dev');
const port = process.env.PORT || '3000';
const sandboxPort = process.env.SANDBOX_PORT || '4010';
const useSandbox = !process.env.API_BASE_URL;
const children = [];

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

async function sandboxUp() {
  try {
    const res = await fetch(`http://127.0.0.1:${sandboxPort}/__sandbox/health`, { signal: AbortSignal.timeout(500) });
    return res.ok;
  } catch {
    return false;
  }
}

function stopAll(code) {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(0));

// The configuration and its access gate, checked before anything is built or started: a refusal is the last line
// printed, never followed by "Ready" (the server checks again when started on its own).
{
  const code = await exited(
    runBin('tsx', ['--conditions=react-server', 'scripts/preflight.ts'], {
      env: { ...process.env, PORT: port, SANDBOX_PORT: sandboxPort },
    }),
  );
  if (code !== 0) stopAll(code);
}

if (!dev && buildIsStale()) {
  console.log('> Building the dashboard (first start, or sources changed)…');
  const code = await exited(runBin('next', ['build']));
  if (code !== 0) process.exit(code);
}

if (useSandbox) {
  if (await sandboxUp()) {
    console.log(`> Using the sandbox already running on port ${sandboxPort}`);
  } else {
    // Activity on by default: a live sandbox gives the search index something to follow.
    const activity = process.env.SANDBOX_ACTIVITY ?? '1';
    const sandbox = runBin('tsx', ['sandbox/main.ts'], {
      env: { ...process.env, SANDBOX_PORT: sandboxPort, SANDBOX_ACTIVITY: activity },
    });
    children.push(sandbox);
    sandbox.on('exit', (code) => {
      console.error('> The sandbox stopped');
      stopAll(code || 1);
    });
    const deadline = Date.now() + 60_000;
    while (!(await sandboxUp())) {
      if (Date.now() > deadline) {
        console.error('> The sandbox did not start within 60 s');
        stopAll(1);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

// An idle connection is kept 65 s, not Node's 5: a load balancer keeps its own for 60 s (AWS ALB's default) and
// reuses one the server may close as a request arrives (a 502 at the balancer). Longer than the balancer's, always.
const keepAlive = process.env.KEEP_ALIVE_TIMEOUT || '65000';
const next = runBin('next', dev ? ['dev', '-p', port] : ['start', '-p', port, '--keepAliveTimeout', keepAlive], {
  env: { ...process.env, PORT: port, SANDBOX_PORT: sandboxPort },
});
children.push(next);
next.on('exit', (code) => stopAll(code ?? 1));
console.log(
  `> Collections Console on http://localhost:${port} ${useSandbox ? '(Sandbox data: the embedded upstream on port ' + sandboxPort + ')' : '(upstream: ' + new URL(process.env.API_BASE_URL).origin + ')'}`,
);
