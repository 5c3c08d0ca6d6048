import { existsSync } from 'node:fs';

/**
 * Which Chromium the browser tests use: CHROMIUM_PATH, else Debian's
 * /usr/bin/chromium, else undefined (Playwright's own download).
 */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser'])
    if (existsSync(candidate)) return candidate;
  return undefined;
}

/** Flags for a headless Chromium on a locked-down machine (no network beyond loopback). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
