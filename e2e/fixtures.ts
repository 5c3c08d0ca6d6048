import { createHash } from 'node:crypto';
import { EncryptJWT } from 'jose';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import type { Fixtures } from '../sandbox/fixtures';
import { E2E, SANDBOX_KEYS } from './env';

/**
 * Shared fixtures: the sandbox's own description of its data (ids are
 * discovered, never hard-coded) and an axe check that fails on serious or
 * critical violations.
 */
type SandboxData = Fixtures & { demo: Fixtures['accounts'][number]; other: Fixtures['accounts'][number] };

export const test = base.extend<{ axe: (page: Page) => Promise<void>; leakGuard: void }, { sandbox: SandboxData }>({
  // Every response a browser sees in any test: headers and body must not carry a key.
  leakGuard: [
    async ({ context }, use) => {
      const seen: { url: string; headers: string; body: Promise<string> }[] = [];
      context.on('response', (response) => {
        // Headers now (the context may be gone by the time the body arrives); the body when it can be read.
        const body = response.body().then(
          (b) => b.toString('utf8'),
          () => '',
        );
        seen.push({ url: response.url(), headers: JSON.stringify(response.headers()), body });
      });
      await use();
      // A body still not here 5 s after the test (a request the page dropped as it ended) cannot have
      // reached the test: waiting for it must not outlast it.
      const late = new Promise<string>((resolve) => setTimeout(() => resolve(''), 5_000).unref());
      const checks = seen.map(async ({ url, headers, body }) => {
        const text = await Promise.race([body, late]);
        const key = SANDBOX_KEYS.find((k) => headers.includes(k) || text.includes(k));
        return key ? `${url} carries ${key.slice(0, 6)}…` : null;
      });
      expect((await Promise.all(checks)).filter(Boolean)).toEqual([]);
    },
    { auto: true },
  ],
  sandbox: [
    async ({}, use) => {
      const fixtures = (await (await fetch(`${E2E.sandboxURL}/__sandbox/fixtures`)).json()) as Fixtures;
      const byId = (id: string) => fixtures.accounts.find((a) => a.id === id)!;
      await use({ ...fixtures, demo: byId('acc_demo'), other: byId('acc_other') });
    },
    { scope: 'worker' },
  ],
  axe: async ({}, use) => {
    await use(async (page) => {
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
    });
  },
});

/** Waits until React has attached its handlers to an element, so a click or Enter is not lost. */
export async function expectHydrated(locator: Locator): Promise<void> {
  await expect
    .poll(() => locator.evaluate((el) => Object.keys(el).some((key) => key.startsWith('__reactProps$'))), {
      message: 'element hydrated by React',
    })
    .toBe(true);
}

/**
 * A page of a browser signed in to the OpenID Connect dashboard as `email` (any password): a context of its
 * own (axe needs one), as a second person's browser is.
 */
export async function signedIn(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: E2E.oidcURL })).newPage();
  await page.goto('/collections');
  await page.getByPlaceholder('Enter any login').fill(email);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page.getByRole('region', { name: 'Collections table' })).toBeVisible();
  return page;
}

/** Waits until a dashboard (the e2e one unless `origin` names another) reports its search index ready. */
export async function indexReady(request: APIRequestContext, origin = '') {
  await expect
    .poll(async () => (await (await request.get(`${origin}/api/index/status`)).json()).data.state, { timeout: 30_000 })
    .toBe('ready');
}

/** A session cookie as the dashboard seals it (the format is the interface: a dir/A256GCM JWE). */
export async function sealedSession(payload: Record<string, unknown>, expiresAt: number) {
  const key = new Uint8Array(
    createHash('sha256').update(`collections-console:cookie:${E2E.oidc.sessionSecret}`).digest(),
  );
  return new EncryptJWT({ ...payload, pur: 'session' })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt(expiresAt - 3600)
    .setExpirationTime(expiresAt)
    .encrypt(key);
}

export { expect };
