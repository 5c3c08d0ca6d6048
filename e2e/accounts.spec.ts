import type { BrowserContext } from '@playwright/test';
import type { Fixtures } from '../sandbox/fixtures';
import { E2E } from './env';
import { expect, sealedSession, test } from './fixtures';
import { ownServers } from './processes';

/**
 * Several accounts in one dashboard (issue 76): the sandbox's two, served when nothing names an account (the
 * newcomer's `npm start`), and a signed-in dashboard whose second account only its admin may see.
 */
const open = ownServers('accounts', 60, { API_KEY: '', INDEX_POLL_S: '2' });
const oidc = ownServers('accounts-oidc', 61, {
  API_KEY: '',
  // What these tests ask is who sees which account: no index to build beside the other dashboard's.
  INDEX: 'off',
  DASHBOARD_URL: `http://127.0.0.1:${E2E.port + 61}`,
  OIDC_ISSUER: E2E.oidcIssuer,
  OIDC_CLIENT_ID: E2E.oidc.clientId,
  OIDC_CLIENT_SECRET: E2E.oidc.clientSecret,
  OIDC_ALLOWED_DOMAINS: 'example.com',
  SESSION_SECRET: E2E.oidc.sessionSecret,
  ACCOUNTS: JSON.stringify([
    { id: 'demo', name: 'Demo Store', key: 'sk_sandbox_demo', mode: 'live', viewers: ['grace@example.com'] },
    { id: 'other', name: 'Other Business Ltd', keyEnv: 'OTHER_KEY', mode: 'test', admins: ['admin@example.com'] },
    // A key the upstream does not know: revoked, as far as the dashboard can tell.
    { id: 'revoked', name: 'Revoked Ltd', key: 'sk_sandbox_revoked', mode: 'live', admins: ['admin@example.com'] },
  ]),
  OTHER_KEY: 'sk_sandbox_other',
});

let fixtures: Fixtures & { demo: Fixtures['accounts'][number]; other: Fixtures['accounts'][number] };

// Two dashboards of its own, four axe passes in a test: room for a busy CI machine.
test.describe.configure({ mode: 'serial', timeout: 90_000 });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  await Promise.all([open.start(), oidc.start()]);
  const all = (await (await fetch(`${open.sandboxURL}/__sandbox/fixtures`)).json()) as Fixtures;
  const byId = (id: string) => all.accounts.find((a) => a.id === id)!;
  fixtures = { ...all, demo: byId('acc_demo'), other: byId('acc_other') };
});
test.afterAll(async () => {
  await Promise.all([open.stop(), oidc.stop()]);
});

test.describe('the sandbox’s two accounts', () => {
  test.use({ baseURL: open.baseURL });

  test('a page names its account; the switcher keeps the list’s filters and marks test data', async ({ page, axe }) => {
    await page.goto('/collections?status=completed');
    await expect(page).toHaveURL(/\/collections\?status=completed&account=demo$/);
    const switcher = page.getByRole('button', { name: /^Account: Demo Store/ });
    await expect(switcher).toBeVisible();
    await expect(page.getByText('Test data', { exact: true })).toHaveCount(0);
    // Every link names the account: a link pasted to a colleague opens the same page in the same account.
    const firstRow = page.getByRole('region', { name: 'Collections table' }).getByRole('link').first();
    await expect(firstRow).toHaveAttribute('href', /account=demo/);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Overview' }),
    ).toHaveAttribute('href', '/overview?account=demo');

    await switcher.click();
    const list = page.getByRole('list', { name: 'Accounts' });
    await expect(list.getByRole('link')).toHaveText([/Demo Store\s*Live/, /Other Business Ltd\s*Test/]);
    await expect(list.getByRole('link', { name: /Demo Store/ })).toHaveAttribute('aria-current', 'true');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await axe(page);
    }
    await list.getByRole('link', { name: /Other Business Ltd/ }).click();
    await expect(page).toHaveURL(/\/collections\?status=completed&account=other$/);
    await expect(page.getByRole('button', { name: /^Account: Other Business Ltd/ })).toBeVisible();
    await expect(page.getByText('Test data', { exact: true })).toBeVisible();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await axe(page);
    }
    // The account is remembered: a page opened without one opens in the last.
    await page.goto('/overview');
    await expect(page).toHaveURL(/\/overview\?account=other$/);
    await expect(page.getByText('Test data', { exact: true })).toBeVisible();
  });

  test('switching from a record goes to the other account’s list, by keyboard', async ({ page }) => {
    const id = fixtures.demo.collections.integrated[0]!;
    await page.goto(`/collections/${id}?account=demo`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const switcher = page.getByRole('button', { name: /^Account: Demo Store/ });
    await switcher.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: /Other Business Ltd/ }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/collections\?account=other$/);
  });

  test('a record of the other account says whose it is and opens there', async ({ page, request }) => {
    const id = fixtures.other.collections.integrated[0]!;
    const response = await page.goto(`/collections/${id}?account=demo`);
    expect(response?.status()).toBe(403);
    await expect(
      page.getByRole('alert').filter({ hasText: 'This collection belongs to Other Business Ltd' }),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Open in Other Business Ltd' }).click();
    await expect(page).toHaveURL(new RegExp(`/collections/${id}\\?account=other$`));
    await expect(page.getByRole('button', { name: /^Account: Other Business Ltd/ })).toBeVisible();
    await expect(page.getByText('Test data', { exact: true })).toBeVisible();

    const api = await request.get(`/api/collections/${id}?account=demo`);
    expect(api.status()).toBe(403);
    expect(await api.json()).toEqual({
      status: 'error',
      code: 'forbidden',
      message: 'This collection belongs to Other Business Ltd',
      ownerAccount: { id: 'other', name: 'Other Business Ltd' },
    });
    const provider = await request.get(`/api/providers/${fixtures.demo.providers[0]}?account=other`);
    expect((await provider.json()).ownerAccount).toEqual({ id: 'demo', name: 'Demo Store' });
    // An id no account owns: today's answer.
    const nobody = await request.get(`/api/collections/${fixtures.demo.collections.integrated[0]!.replace(/.$/, 'Z')}`);
    expect([403, 404]).toContain(nobody.status());
    expect((await nobody.json()).ownerAccount).toBeUndefined();
  });

  test('Lookup names the owner of another account’s record and links it there', async ({ page }) => {
    const theirs = fixtures.other.collections.integrated[1]!;
    await page.goto('/lookup?account=demo');
    await page.getByRole('textbox').first().fill(`Customer asks about ${theirs}`);
    await page.getByRole('button', { name: /Look up/ }).click();
    await expect(page.getByText('Belongs to Other Business Ltd')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Open in Other Business Ltd' })).toHaveAttribute(
      'href',
      `/collections/${theirs}?account=other`,
    );
  });

  test('an unknown account is a 400 naming it, on a page listing the accounts', async ({ page, request }) => {
    const response = await page.goto('/collections?account=nope');
    expect(response?.status()).toBe(400);
    await expect(page.getByRole('alert').filter({ hasText: 'there is no account "nope"' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Demo Store' })).toHaveAttribute('href', '/collections?account=demo');
    const api = await request.get('/api/collections?limit=1&account=Not%20An%20Id');
    expect(api.status()).toBe(400);
    expect((await api.json()).message).toMatch(/^Invalid account/);
    // Each account reads its own rows.
    const other = await (await request.get('/api/collections?limit=100&account=other')).json();
    expect(other.meta.count).toBe(fixtures.other.listedCollections);
  });
});

test.describe('every account at once', () => {
  test.use({ baseURL: open.baseURL });

  test('a search of all accounts lists each match with its account, and its links open there', async ({
    page,
    request,
    axe,
  }) => {
    await expect
      .poll(async () => (await (await request.get('/api/index/status?account=other')).json()).data.state, {
        timeout: 60_000,
      })
      .toBe('ready');
    await expect
      .poll(async () => (await (await request.get('/api/index/status?account=demo')).json()).data.state, {
        timeout: 60_000,
      })
      .toBe('ready');
    // A reference of each account's: the search of one finds one, the search of all finds both.
    const all = await (await request.get('/api/search?q=INV&limit=100&account=all')).json();
    const accounts = new Set(all.data.map((row: { account: string }) => row.account));
    expect(accounts).toEqual(new Set(['demo', 'other']));
    const demo = await (await request.get('/api/search?q=INV&limit=100&account=demo')).json();
    const other = await (await request.get('/api/search?q=INV&limit=100&account=other')).json();
    expect(all.meta.count).toBe(demo.meta.count + other.meta.count);
    expect(all.meta.accounts.map((a: { id: string; count: number }) => [a.id, a.count])).toEqual([
      ['demo', demo.meta.count],
      ['other', other.meta.count],
    ]);

    const theirs = other.data[0];
    await page.goto(`/search?q=${encodeURIComponent(theirs.reference)}&account=demo`);
    await page.getByRole('navigation', { name: 'Search in' }).getByRole('link', { name: 'All accounts' }).click();
    await expect(page).toHaveURL(/account=all/);
    const table = page.getByRole('region', { name: 'Collections table' });
    await expect(table.getByRole('columnheader', { name: 'Account' })).toBeVisible();
    const row = table.getByRole('row').filter({ hasText: theirs.reference }).first();
    await expect(row.getByRole('cell', { name: 'Other Business Ltd' })).toBeVisible();
    await expect(row.getByRole('link').first()).toHaveAttribute('href', `/collections/${theirs.id}?account=other`);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await axe(page);
    }
    await row.getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`/collections/${theirs.id}\\?account=other$`));
    await expect(page.getByText('Test data', { exact: true })).toBeVisible();
  });

  test('the overview of every account puts each currency’s figures side by side, never across currencies', async ({
    page,
    axe,
  }) => {
    await page.goto('/overview?range=all&account=demo');
    await page.getByRole('navigation', { name: 'Overview of' }).getByRole('link', { name: 'All accounts' }).click();
    await expect(page).toHaveURL(/account=all/);
    await expect(page.getByRole('heading', { name: 'Overview, all accounts' })).toBeVisible();
    const tables = page.getByRole('region', { name: /, every account$/ });
    await expect(tables.first()).toBeVisible();
    const first = tables.first();
    await expect(first.getByRole('rowheader', { name: 'All accounts' })).toBeVisible();
    await expect(first.getByRole('link', { name: 'Demo Store' })).toHaveAttribute('href', /account=demo/);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await axe(page);
    }
    // A range chosen here stays on every account.
    await page
      .getByRole('navigation', { name: 'Range' })
      .getByRole('link', { name: /7 days/ })
      .click();
    await expect(page).toHaveURL(/range=7d.*account=all|account=all.*range=7d/);
  });

  test('the status page shows each account’s index and upstream', async ({ page }) => {
    await page.goto('/status?account=demo');
    const table = page.getByRole('region', { name: 'Accounts table' });
    await expect(table.getByRole('row', { name: /Demo Store/ })).toContainText('Live');
    await expect(table.getByRole('row', { name: /Other Business Ltd/ })).toContainText('Test');
    await expect(table.getByRole('row', { name: /Other Business Ltd/ })).toContainText('ready');
  });
});

/** A session of the signed-in dashboard, as its sign-in seals it, for an hour. */
async function signedInAs(context: BrowserContext, email: string, name: string) {
  const session = await sealedSession({ email, name }, Math.floor(Date.now() / 1000) + 3600);
  await context.addCookies([{ name: 'cc-session', value: session, url: oidc.baseURL }]);
}

test.describe('a viewer who may see one account', () => {
  test.use({ baseURL: oidc.baseURL });

  test('sees only it: the other is forbidden on pages and the API, and its records give no hint', async ({
    page,
    context,
  }) => {
    await signedInAs(context, 'grace@example.com', 'Grace');
    await page.goto('/collections');
    await expect(page).toHaveURL(/account=demo$/);
    await page.getByRole('button', { name: /^Account: Demo Store/ }).click();
    await expect(page.getByRole('list', { name: 'Accounts' }).getByRole('link')).toHaveText([/Demo Store/]);

    const refused = await page.goto('/collections?account=other');
    expect(refused?.status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'You may not see this account' })).toBeVisible();
    const api = await page.request.get('/api/collections?limit=1&account=other');
    expect(api.status()).toBe(403);
    expect((await api.json()).code).toBe('forbidden_account');
    const theirs = await page.request.get(`/api/collections/${fixtures.other.collections.integrated[0]}`);
    expect(theirs.status()).toBe(403);
    expect((await theirs.json()).ownerAccount).toBeUndefined();
  });

  test('the account’s admin sees both, with the role each gives', async ({ page, context }) => {
    await signedInAs(context, 'admin@example.com', 'Ada Admin');
    // demo lists admin@example.com nowhere: no lists would give the global role, lists give none.
    const demo = await page.goto('/collections?account=demo');
    expect(demo?.status()).toBe(403);
    await page.goto('/audit?account=other');
    await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  });

  test('an account whose key was revoked fails on its own pages and status line; the others read on', async ({
    page,
    context,
  }) => {
    await signedInAs(context, 'admin@example.com', 'Ada Admin');
    await page.goto('/collections?account=revoked');
    await expect(page.getByRole('alert').filter({ hasText: /API key was rejected/i })).toBeVisible();
    await page.goto('/collections?account=other');
    await expect(page.getByRole('region', { name: 'Collections table' })).toBeVisible();
    await page.goto('/status?account=other');
    const table = page.getByRole('region', { name: 'Accounts table' });
    await expect(table.getByRole('row', { name: /Revoked Ltd/ })).toContainText('Key rejected');
    await expect(table.getByRole('row', { name: /Other Business Ltd/ })).not.toContainText('Key rejected');
  });
});
