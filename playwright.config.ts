import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium';
import { E2E } from './e2e/env';

/**
 * The e2e suite runs a production build of the dashboard against a real
 * sandbox over HTTP, on ports of its own so a running `npm start` is left alone.
 */
const executablePath = chromiumPath();

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: E2E.baseURL,
    trace: 'retain-on-failure',
    launchOptions: { executablePath, args: executablePath ? CHROMIUM_ARGS : [] },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    {
      command: 'npx tsx e2e/server.ts sandbox',
      url: `${E2E.sandboxURL}/__sandbox/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe',
    },
    {
      command: 'npx tsx e2e/server.ts dashboard',
      url: `${E2E.baseURL}/api/collections?limit=1`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe',
    },
    {
      // With OpenID Connect sign-in, and the provider it signs in with (e2e/oidc-provider.ts).
      command: 'npx tsx e2e/server.ts oidc',
      // 401 without a session is the server being up.
      url: `${E2E.oidcURL}/api/collections?limit=1`,
      reuseExistingServer: false,
      timeout: 120_000,
    },
    {
      command: 'npx tsx e2e/server.ts gated',
      // 401 without credentials is the gated server being up.
      url: `${E2E.gatedURL}/api/collections?limit=1`,
      reuseExistingServer: false,
      timeout: 120_000,
    },
  ],
  globalTeardown: './e2e/global-teardown.ts',
});
