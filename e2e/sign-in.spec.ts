import type { Page } from '@playwright/test';
import { E2E } from './env';
import { expect, expectHydrated, sealedSession, test } from './fixtures';

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

test.describe('roles and the audit log', () => {
  test('a viewer cannot export contact details, open the audit log or its API, and does not see them offered', async ({
    page,
  }) => {
    await signIn(page, 'grace@example.com');
    await expect(page.getByRole('banner').getByText('Viewer', { exact: true })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' })).toHaveCount(0);
    // Clicked once the page is hydrated: before, the button has no handler yet.
    await expectHydrated(page.getByRole('button', { name: 'Export CSV' }));
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await expect(page.getByRole('checkbox', { name: /Include contact details/ })).toHaveCount(0);
    await expect(page.getByText('exporting e-mails and phones is for admins')).toBeVisible();

    const denied = await page.request.get('/api/export/collections.csv?live=1&contacts=1');
    expect(denied.status()).toBe(403);
    expect(await denied.json()).toMatchObject({ status: 'error', code: 'forbidden_role' });
    expect((await page.request.get('/api/export/collections.csv?live=1')).status()).toBe(200);
    for (const path of ['/api/audit', '/audit']) {
      const res = await page.request.get(path);
      expect(res.status(), path).toBe(403);
    }
    expect(await (await page.request.get('/api/audit')).json()).toMatchObject({ code: 'forbidden_role' });
  });

  test('every data route writes one entry under the user, and an admin finds who viewed a record and who searched for an e-mail', async ({
    browser,
    request,
    sandbox,
  }) => {
    test.slow(); // two people sign in
    const id = sandbox.demo.collections.integrated[1]!;
    const admin = await browser.newPage();
    await signIn(admin, 'admin@example.com');
    await expect(admin.getByRole('banner').getByText('Admin', { exact: true })).toBeVisible();
    const log = async (query: string) =>
      (await (await admin.request.get(`/api/audit?${query}`)).json()) as {
        data: {
          user: string;
          role: string;
          action: string;
          target: string | null;
          requestId: string;
          outcome: string;
        }[];
        meta: { count: number };
      };
    // What the log held before: a retry of this test (or another test) may have viewed the record already.
    const viewsOf = `user=grace%40example.com&action=view_collection&target=${id}`;
    const viewedBefore = (await log(viewsOf)).meta.count;

    const viewer = await browser.newPage();
    await signIn(viewer, 'grace@example.com');
    await expect(viewer.getByRole('banner').getByText('Grace Hopper')).toBeVisible();
    const email = Object.values(sandbox.demo.contacts)[0]!.email;
    const calls: [string, string, string | null][] = [
      [`/api/collections/${id}`, 'view_collection', id],
      [`/api/providers/${sandbox.demo.providers[0]}`, 'view_provider', sandbox.demo.providers[0]!],
      ['/api/collections?limit=5', 'filter', null],
      ['/api/collections?status=pending&limit=5', 'filter', null],
      [`/api/search?q=${encodeURIComponent(email)}`, 'search', null],
      ['/api/overview?range=30d', 'filter', 'overview'],
      ['/api/export/collections.csv?live=1', 'export', null],
    ];
    const requestIds = new Map<string, [string, string | null]>();
    for (const [path, action, target] of calls) {
      const res = await viewer.request.get(path);
      expect(res.status(), path).toBe(200);
      await res.body();
      requestIds.set(res.headers()['x-request-id']!, [action, target]);
    }
    await viewer.goto(`/collections/${id}`);
    await expect(viewer.getByRole('heading', { level: 1 })).toBeVisible();

    const mine = await log('user=grace%40example.com&limit=100');
    for (const [requestId, [action, target]] of requestIds) {
      const entries = mine.data.filter((e) => e.requestId === requestId);
      expect(entries, `${action} ${requestId}`).toHaveLength(1);
      expect(entries[0]).toMatchObject({ user: 'grace@example.com', role: 'viewer', action, outcome: 'ok' });
      if (target) expect(entries[0]!.target).toBe(target);
    }
    expect(mine.data.some((e) => e.action === 'sign_in')).toBe(true);
    // The search's text is not stored; the same e-mail typed again (any case) finds it.
    expect(JSON.stringify(mine.data)).not.toContain(email);
    const searched = await log(`searched=${encodeURIComponent(email.toUpperCase())}`);
    expect(searched.data.map((e) => e.user)).toContain('grace@example.com');

    // Refused requests are entries too, written by the /api routes' own gate (outside the proxy): the viewer
    // asking for the audit log, and a session cookie that does not open.
    const forbidden = await viewer.request.get('/api/audit');
    expect(forbidden.status()).toBe(403);
    const forged = await request.get('/api/collections?limit=1', {
      headers: { Cookie: `${SESSION}=not-a-sealed-session` },
    });
    expect(forged.status()).toBe(401);
    await expect
      .poll(async () =>
        (await log('action=access_denied&limit=100')).data
          .filter((e) => [forbidden, forged].some((r) => r.headers()['x-request-id'] === e.requestId))
          .map(({ user, action, target, outcome }) => ({ user, action, target, outcome }))
          .sort((a, b) => a.outcome.localeCompare(b.outcome)),
      )
      .toEqual([
        { user: 'grace@example.com', action: 'access_denied', target: '/api/audit', outcome: 'forbidden_role' },
        { user: 'anonymous', action: 'access_denied', target: '/api/collections', outcome: 'unauthorized' },
      ]);

    // Two more views than before: the API's read and the page's.
    await expect.poll(async () => (await log(viewsOf)).meta.count).toBe(viewedBefore + 2);
    // The page: "who viewed pay_…", by the record's id.
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await admin.getByLabel('Target').fill(id);
    await admin.getByRole('button', { name: 'Show' }).click();
    const rows = admin.getByRole('region', { name: 'Audit entries' }).getByRole('row');
    await expect(rows.filter({ hasText: 'grace@example.com' }).filter({ hasText: 'view_collection' })).toHaveCount(
      viewedBefore + 2,
    );
    await viewer.close();
    await admin.close();
  });
});

test('without a session no page, /api route, RSC request or prefetch answers data', async ({ request, sandbox }) => {
  const id = sandbox.demo.collections.integrated[0]!;
  const rsc = { RSC: '1' };
  const cases: [string, Record<string, string>?][] = [
    ['/collections'],
    [`/collections/${id}`],
    [`/collections/${id}`, rsc],
    [`/collections/${id}?_rsc=abc`, { ...rsc, 'Next-Router-Prefetch': '1' }],
    [`/providers/${sandbox.demo.providers[0]}`],
    ['/search?q=ada'],
    ['/overview'],
    ['/lookup'],
    ['/audit'],
    ['/api/collections'],
    [`/api/collections/${id}`],
    ['/api/search?q=ada'],
    ['/api/overview?range=30d'],
    ['/api/export/collections.csv?live=1'],
    ['/api/index/status'],
    ['/api/audit'],
    ['/api/collections', { 'x-middleware-subrequest': 'proxy:proxy:proxy:proxy:proxy' }],
  ];
  for (const [path, headers] of cases) {
    const res = await request.get(path, { headers, maxRedirects: 0 });
    const body = await res.text();
    expect([307, 401], path).toContain(res.status());
    if (path.startsWith('/api/')) expect(res.status(), path).toBe(401);
    else expect(res.headers().location, path).toMatch(/^\/auth\/sign-in\?returnTo=|\/auth\/sign-in\?returnTo=/);
    // The id is the request's own (it comes back in returnTo); the record's data must not.
    const record = sandbox.demo.contacts[id]!;
    for (const secret of ['@example.com', record.reference, record.lastName, 'Collections retrieved'])
      expect(body, `${path} carries ${secret}`).not.toContain(secret);
  }
});

test.describe('open mode (the sandbox, no sign-in)', () => {
  test.use({ baseURL: E2E.baseURL });

  test('is an admin: the audit log lists what was opened, as "open access"', async ({ page, sandbox }) => {
    const id = sandbox.demo.collections.integrated[2]!;
    await page.goto(`/collections/${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
    await page.getByLabel('Target').fill(id);
    await page.getByRole('button', { name: 'Show' }).click();
    const row = page
      .getByRole('region', { name: 'Audit entries' })
      .getByRole('row')
      .filter({ hasText: 'view_collection' });
    await expect(row.first()).toContainText('open access');
    await expect(row.first().getByRole('link', { name: id })).toHaveAttribute('href', `/collections/${id}`);
  });
});
