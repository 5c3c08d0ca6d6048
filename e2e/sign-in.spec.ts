import { createHash } from 'node:crypto';
import { EncryptJWT } from 'jose';
import type { Page } from '@playwright/test';
import { E2E } from './env';
import { expect, test } from './fixtures';

/**
 * Signing in with the company's identity provider (issue 16): a real OpenID
 * Provider (e2e/oidc-provider.ts, its own login form) and a dashboard with
 * OIDC_* set, allowing example.com and ada@partner.test, with
 * admin@example.com its only admin.
 */
test.use({ baseURL: E2E.oidcURL });

const SESSION = 'cc-session';

/** Signs in through the provider's own login form, starting from `path`. */
async function signIn(page: Page, email: string, path = '/collections') {
  await page.goto(path);
  await expect(page).toHaveURL((url) => url.origin === new URL(E2E.oidcIssuer).origin);
  await page.getByPlaceholder('Enter any login').fill(email);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

/** A session cookie as the dashboard seals it (the format is the interface: a dir/A256GCM JWE). */
async function sealedSession(payload: Record<string, unknown>, expiresAt: number) {
  const key = new Uint8Array(
    createHash('sha256').update(`collections-console:cookie:${E2E.oidc.sessionSecret}`).digest(),
  );
  return new EncryptJWT({ ...payload, pur: 'session' })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt(expiresAt - 3600)
    .setExpirationTime(expiresAt)
    .encrypt(key);
}

test('a page without a session goes to the provider and comes back signed in, name and role in the shell', async ({
  page,
}) => {
  await signIn(page, 'grace@example.com', '/collections?limit=25');
  await expect(page).toHaveURL(`${E2E.oidcURL}/collections?limit=25`);
  const banner = page.getByRole('banner');
  await expect(banner.getByText('Grace Hopper', { exact: true })).toBeVisible();
  await expect(banner.getByText('Viewer', { exact: true })).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Collections table' }).getByRole('row')).toHaveCount(26);

  // The session cookie is the browser's only credential: HttpOnly, SameSite=Lax, no readable contents.
  const cookie = (await page.context().cookies()).find((c) => c.name === SESSION)!;
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  expect(cookie.value).not.toContain('grace');
  expect(await page.evaluate(() => document.cookie)).not.toContain(SESSION);
  expect((await page.request.get('/api/collections?limit=1')).status()).toBe(200);
});

test('an admin listed in DASHBOARD_ADMINS is shown as one', async ({ page }) => {
  await signIn(page, 'admin@example.com');
  await expect(page.getByRole('banner').getByText('Admin', { exact: true })).toBeVisible();
});

for (const [who, email] of [
  ['a user outside the allowed e-mails and domains', 'mallory@elsewhere.test'],
  ['a user whose e-mail the provider has not verified', 'unverified@example.com'],
] as const)
  test(`${who} is told they are not allowed, and reaches no page or /api route`, async ({ page }) => {
    await signIn(page, email);
    await expect(page.getByRole('heading', { name: 'You are not allowed to use Collections Console' })).toBeVisible();
    expect((await page.context().cookies()).some((c) => c.name === SESSION)).toBe(false);
    expect((await page.request.get('/api/collections?limit=1')).status()).toBe(401);
    const res = await page.request.get('/collections', { maxRedirects: 0 });
    expect(res.status()).toBe(307);
    expect(res.headers().location).toMatch(
      /^\/auth\/sign-in\?returnTo=%2Fcollections$|\/auth\/sign-in\?returnTo=%2Fcollections$/,
    );
  });

test('a replayed callback (the same state again) is refused', async ({ page }) => {
  let callback = '';
  page.on('request', (request) => {
    if (request.url().startsWith(`${E2E.oidcURL}/auth/callback`)) callback = request.url();
  });
  await signIn(page, 'grace@example.com');
  await expect(page.getByRole('banner').getByText('Grace Hopper')).toBeVisible();
  expect(callback).toContain('state=');
  await page.goto(callback);
  await expect(page.getByRole('heading', { name: 'This sign-in has expired' })).toBeVisible();
});

test('a tampered, foreign or expired session cookie is no session', async ({ page, context }) => {
  const now = Math.floor(Date.now() / 1000);
  const good = await sealedSession({ email: 'grace@example.com', name: 'Grace' }, now + 3600);
  // A well-formed cookie opens the dashboard: the forgeries below fail for what they are, not their shape.
  await context.addCookies([{ name: SESSION, value: good, url: E2E.oidcURL }]);
  expect((await page.request.get('/api/collections?limit=1')).status()).toBe(200);

  const parts = good.split('.');
  const tampered = [
    ...parts.slice(0, 3),
    `${parts[3]!.startsWith('A') ? 'B' : 'A'}${parts[3]!.slice(1)}`,
    parts[4],
  ].join('.');
  const expired = await sealedSession({ email: 'grace@example.com' }, now - 60);
  const notAllowed = await sealedSession({ email: 'mallory@elsewhere.test' }, now + 3600);
  for (const value of [tampered, expired, notAllowed, 'not-a-session']) {
    await context.clearCookies();
    await context.addCookies([{ name: SESSION, value, url: E2E.oidcURL }]);
    expect((await page.request.get('/api/collections?limit=1')).status(), value.slice(0, 20)).toBe(401);
    const res = await page.request.get('/collections', { maxRedirects: 0 });
    expect(res.status()).toBe(307);
    // An RSC request or a prefetch (a client-side navigation) gets no data either: the same way to sign-in.
    for (const headers of [{ RSC: '1' }, { RSC: '1', 'Next-Router-Prefetch': '1' }] as Record<string, string>[]) {
      const rsc = await page.request.get('/collections/pay_x?_rsc=1', { headers, maxRedirects: 0 });
      expect(rsc.status()).toBe(307);
      expect(rsc.headers().location).toContain('/auth/sign-in?returnTo=');
      expect(await rsc.text()).not.toContain('"data"');
    }
  }
});

test('"Sign out" ends the session: /api answers 401, pages go back through the provider', async ({ page }) => {
  await signIn(page, 'ada@partner.test');
  await expect(page.getByRole('banner').getByText('Ada Lovelace')).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'You have signed out' })).toBeVisible();
  expect((await page.context().cookies()).some((c) => c.name === SESSION)).toBe(false);
  expect((await page.request.get('/api/collections?limit=1')).status()).toBe(401);
  // The next page goes through the provider again (which, still signed in itself, sends the user straight back).
  const toProvider: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(E2E.oidcIssuer)) toProvider.push(request.url());
  });
  await page.goto('/overview');
  await expect(page).toHaveURL(`${E2E.oidcURL}/overview`);
  expect(toProvider.some((url) => url.includes('client_id=collections-console'))).toBe(true);
});

test('sign-out from another site is refused', async ({ request }) => {
  for (const headers of [{ Origin: 'https://evil.example' }, { 'Sec-Fetch-Site': 'cross-site' }] as Record<
    string,
    string
  >[]) {
    const res = await request.post('/auth/sign-out', { headers, maxRedirects: 0 });
    expect(res.status()).toBe(403);
  }
});
