#!/usr/bin/env node
/**
 * The container image's entry point (Dockerfile's CMD): the standalone Next.js server (`server.js`), and,
 * when no upstream is configured (API_BASE_URL unset), the sandbox beside it for a demo, as `npm start`
 * does on a fresh machine. Signals reach both; either one stopping stops the container.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const sandboxPort = process.env.SANDBOX_PORT || '4010';
const children = [];

function run(script, env) {
  const child = spawn(process.execPath, [join(here, script)], { stdio: 'inherit', env: { ...process.env, ...env } });
  children.push(child);
  child.on('exit', (code, signal) => stop(code ?? (signal ? 1 : 0)));
  return child;
}

function stop(code) {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(0));

if (!process.env.API_BASE_URL) {
  run('sandbox.mjs', { SANDBOX_PORT: sandboxPort, SANDBOX_ACTIVITY: process.env.SANDBOX_ACTIVITY ?? '1' });
  const deadline = Date.now() + 60_000;
  while (
    !(await fetch(`http://127.0.0.1:${sandboxPort}/__sandbox/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) {
      console.error('The sandbox did not start within 60 s');
      stop(1);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
// Next's standalone server reads KEEP_ALIVE_TIMEOUT (ms) and else keeps Node's 5 s: 65 s, as `npm start`, so a load
// balancer's idle connections (60 s on AWS ALB) are never closed under it by the server.
if (process.exitCode === undefined)
  run('server.js', { SANDBOX_PORT: sandboxPort, KEEP_ALIVE_TIMEOUT: process.env.KEEP_ALIVE_TIMEOUT || '65000' });
