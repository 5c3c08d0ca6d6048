import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium';

/**
 * `npm run test:e2e:remote`: the read-only specs tagged @remote against any
 * deployment (E2E_BASE_URL, E2E_USER, E2E_PASSWORD); no servers are started.
 */
if (!process.env.E2E_BASE_URL) throw new Error('Set E2E_BASE_URL (and E2E_USER / E2E_PASSWORD for HTTP Basic).');
const executablePath = chromiumPath();

export default defineConfig({
  testDir: './e2e',
  testMatch: 'remote.spec.ts',
  grep: /@remote/,
  workers: 2,
  retries: 1,
  timeout: 30_000,
  reporter: [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    launchOptions: { executablePath, args: executablePath ? CHROMIUM_ARGS : [] },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
});
