import { spawn } from 'node:child_process';

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
