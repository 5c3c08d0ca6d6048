import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Runs a package's own bin with this Node (no shell, works on every platform).
 * Returns the child process.
 */
const require = createRequire(import.meta.url);

export function binPath(pkg, name = pkg) {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
  return join(dirname(manifest), typeof bin === 'string' ? bin : bin[name]);
}

export function runBin(pkg, args, options = {}) {
  return spawn(process.execPath, [binPath(pkg, options.name), ...args], { stdio: 'inherit', ...options });
}

export function exited(child) {
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}
