import { resolve } from 'node:path';

/** The sandbox's own settings, read from the environment once. */
export function sandboxConfig(env: NodeJS.ProcessEnv = process.env) {
  const port = Number(env.SANDBOX_PORT ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`SANDBOX_PORT must be a port number, got "${env.SANDBOX_PORT}"`);
  return {
    port,
    host: '127.0.0.1',
    dbPath: resolve(env.SANDBOX_DB ?? '.data/sandbox.sqlite'),
    faults: env.SANDBOX_FAULTS === '1' || env.SANDBOX_FAULTS === 'true',
    slowMs: Number(env.SANDBOX_SLOW_MS ?? 15_000),
  };
}
