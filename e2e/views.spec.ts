import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Page } from '@playwright/test';
import { E2E } from './env';
import { expect, expectHydrated, indexReady, signedIn, test } from './fixtures';

/**
 * Saved views (contract section 13) on the dashboard that signs people in with OpenID Connect:
 * grace@example.com is a viewer, admin@example.com the admin. One story, in order: a viewer saves a
 * filtered, sorted view with two columns hidden, opens it again, makes it her default and renames it; the
 * admin's view is hers to see only once he shares it, read-only to her; he pins it; she deletes hers; the
 * audit log holds each step; the export follows the view's columns.
 */
test.use({ baseURL: E2E.oidcURL });
test.describe.configure({ mode: 'serial' });

const table = (page: Page) => page.getByRole('region', { name: 'Collections table' });
const headers = async (page: Page) =>
  (await table(page).getByRole('columnheader').allInnerTexts()).map((h) => h.trim().toLowerCase());

async function openViews(page: Page) {
  const button = page.getByRole('button', { name: 'Views', exact: true });
  await expectHydrated(button);
  await button.click();
  await expect(page.getByRole('region', { name: 'Your views' })).toBeVisible();
}

test('a viewer saves a view, opens it again, makes it her default, renames it; a shared view, pins, delete, audit, export', async ({
  browser,
  axe,
}) => {
  // Two people sign in, and each step is a round trip: 1.1-1.5 min in CI runs, past test.slow()'s 90 s once.
  test.setTimeout(180_000);
  const run = Date.now().toString(36);
  const name = `Pending by amount ${run}`;

  // 1. Grace filters and sorts, hides two columns, saves.
  const grace = await signedIn(browser, 'grace@example.com');
  await indexReady(grace.request);
  await grace.goto('/collections?status=pending&sort=-amount&limit=25');
  await expect(table(grace).getByRole('row').nth(1)).toBeVisible();
  await grace.getByRole('button', { name: 'Columns' }).click();
  await grace.getByRole('checkbox', { name: 'Methods' }).uncheck();
  await grace.getByRole('checkbox', { name: 'Follow-up' }).uncheck();
  await grace.keyboard.press('Escape');
  const chosen = ['reference', 'contact', 'amount', 'status', 'created', 'id'];
  expect(await headers(grace)).toEqual(chosen);

  await openViews(grace);
  await grace.getByRole('button', { name: 'Save view' }).click();
  // A viewer is not offered sharing.
  await expect(grace.getByRole('checkbox', { name: 'Share with everyone' })).toHaveCount(0);
  // An empty name is refused, the field kept; then the real one.
  await grace.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(grace.getByText('Invalid name: name must not be empty')).toBeVisible();
  await grace.getByRole('textbox', { name: 'View name' }).fill(name);
  await axe(grace);
  await grace.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(grace).toHaveURL(/\/collections\?view=view_[\w-]+&limit=25&status=pending&sort=-amount$/);
  const viewUrl = grace.url();
  const viewId = new URL(viewUrl).searchParams.get('view')!;
  await expect(grace.getByRole('heading', { level: 1 })).toHaveText(`Collections · ${name}`);

  // The same name again is refused by name, the field kept as typed.
  await openViews(grace);
  await expect(grace.getByRole('button', { name: 'Update view' })).toHaveCount(0);
  await grace.getByRole('button', { name: 'Save view' }).click();
  await grace.getByRole('textbox', { name: 'View name' }).fill(name.toUpperCase());
  await grace.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(grace.getByText(/you already have a view named/)).toBeVisible();
  await expect(grace.getByRole('textbox', { name: 'View name' })).toHaveValue(name.toUpperCase());
  await grace.getByRole('button', { name: 'Cancel' }).click();
  await grace.keyboard.press('Escape');

  // A viewer cannot share, even by asking the API.
  const share = await grace.request.put(`/api/views/${viewId}`, { data: { shared: true } });
  expect(share.status()).toBe(403);
  expect(await share.json()).toMatchObject({ code: 'forbidden_role' });

  // 2. A reload keeps the view, its columns and state; from no view, the menu opens it and the URL round-trips.
  await grace.reload();
  await expect(table(grace).getByRole('row').nth(1)).toBeVisible();
  expect(await headers(grace)).toEqual(chosen);
  // Without a view, her browser's own columns (those she chose before saving); reset to the defaults.
  await grace.goto('/collections?view=none');
  await expect(table(grace).getByRole('row').nth(1)).toBeVisible();
  expect(await headers(grace)).toEqual(chosen);
  await grace.getByRole('button', { name: 'Columns' }).click();
  await grace.getByRole('button', { name: 'Reset columns' }).click();
  await grace.keyboard.press('Escape');
  expect(await headers(grace)).toContain('methods');
  await openViews(grace);
  const item = grace.getByRole('region', { name: 'Your views' }).getByRole('link', { name: new RegExp(name) });
  await expect(item).toContainText(/\d/); // its count, from the index
  await item.click();
  await expect(grace).toHaveURL(viewUrl);
  expect(await headers(grace)).toEqual(chosen);
  await expect(grace.getByRole('combobox', { name: 'Sort by' })).toHaveValue('-amount');
  // Opened by its id alone, the view writes its whole state into the URL.
  await grace.goto(`/collections?view=${viewId}`);
  await expect(grace).toHaveURL(viewUrl);
  await expect(table(grace).getByRole('row')).toHaveCount(26);

  // 3. Her default: /collections opens it.
  await openViews(grace);
  await grace.getByRole('button', { name: 'Set as my default' }).click();
  await expect(grace.getByRole('button', { name: 'Unset my default' })).toBeVisible();
  await grace.goto('/collections');
  await expect(grace.getByRole('heading', { level: 1 })).toHaveText(`Collections · ${name}`);
  await expect(grace).toHaveURL(viewUrl);

  // 4. Rename.
  const renamed = `Pending, largest first ${run}`;
  await openViews(grace);
  await grace.getByRole('button', { name: 'Rename view' }).click();
  await grace.getByRole('textbox', { name: 'View name' }).fill(renamed);
  await grace.getByRole('button', { name: 'Save name' }).click();
  await expect(grace.getByRole('heading', { level: 1 })).toHaveText(`Collections · ${renamed}`);

  // 5. The export follows the view's columns, in its order (no contact details for a viewer).
  await grace.getByRole('button', { name: 'Export CSV' }).click();
  const [download] = await Promise.all([
    grace.waitForEvent('download'),
    grace.getByRole('link', { name: 'Download CSV' }).click(),
  ]);
  const [header] = parse(readFileSync((await download.path())!, 'utf8'), { bom: true }) as string[][];
  expect(header).toEqual([
    'reference',
    'contact_first_name',
    'contact_last_name',
    'amount_value',
    'currency',
    'amount_formatted',
    'status',
    'created_at',
    'id',
    'as_of',
  ]);

  // 6. The admin does not see her view; his own is hers to see only once he shares it, and read-only to her.
  const admin = await signedIn(browser, 'admin@example.com');
  expect((await admin.request.get(`/api/views/${viewId}`)).status()).toBe(404);
  const team = `On hold this week ${run}`;
  await admin.goto('/collections?status=on_hold');
  await openViews(admin);
  await expect(admin.getByRole('region', { name: 'Your views' })).not.toContainText(renamed);
  await admin.getByRole('button', { name: 'Save view' }).click();
  await admin.getByRole('textbox', { name: 'View name' }).fill(team);
  await admin.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText(`Collections · ${team}`);
  const teamId = new URL(admin.url()).searchParams.get('view')!;
  expect((await grace.request.get(`/api/views/${teamId}`)).status()).toBe(404);
  await openViews(admin);
  await admin.getByRole('button', { name: 'Share with everyone' }).click();
  await expect(admin.getByRole('button', { name: 'Stop sharing' })).toBeVisible();
  await admin.getByRole('button', { name: 'Pin to navigation' }).click();
  await expect(
    admin.getByRole('navigation', { name: 'Pinned views' }).getByRole('link', { name: new RegExp(team) }),
  ).toBeVisible();

  await grace.goto('/collections?view=none');
  await openViews(grace);
  const shared = grace
    .getByRole('region', { name: 'Shared with the team' })
    .getByRole('link', { name: new RegExp(team) });
  await expect(shared).toContainText('admin@example.com');
  await shared.click();
  await expect(grace.getByRole('heading', { level: 1 })).toHaveText(`Collections · ${team}`);
  await expect(grace.getByText('Saved view, shared by admin@example.com')).toBeVisible();
  await openViews(grace);
  await expect(grace.getByRole('button', { name: 'Save as' })).toBeVisible();
  await expect(grace.getByRole('button', { name: 'Rename view' })).toHaveCount(0);
  await expect(grace.getByRole('button', { name: 'Delete view' })).toHaveCount(0);
  expect((await grace.request.put(`/api/views/${teamId}`, { data: { name: 'mine now' } })).status()).toBe(403);
  expect((await grace.request.delete(`/api/views/${teamId}`)).status()).toBe(403);
  // The team's pin is in her navigation too, with its count.
  const pin = grace.getByRole('navigation', { name: 'Pinned views' }).getByRole('link', { name: new RegExp(team) });
  await expect(pin).toContainText(/\d/);
  for (const colorScheme of ['light', 'dark'] as const) {
    await grace.emulateMedia({ colorScheme });
    await axe(grace);
  }
  await grace.keyboard.press('Escape');

  // 7. She deletes hers: gone from the menu, her default forgotten.
  await grace.goto(viewUrl);
  await openViews(grace);
  await grace.getByRole('button', { name: 'Delete view' }).click();
  await grace.getByRole('group', { name: 'Delete this view' }).getByRole('button', { name: 'Delete' }).click();
  await expect(grace).toHaveURL(/view=none/);
  await openViews(grace);
  await expect(grace.getByRole('region', { name: 'Your views' })).not.toContainText(renamed);
  expect((await grace.request.get(`/api/views/${viewId}`)).status()).toBe(404);
  await grace.goto('/collections');
  await expect(grace.getByRole('heading', { level: 1 })).toHaveText('Collections');

  // 8. The audit log holds each step, by the view's id.
  type Entry = {
    user: string;
    action: string;
    target: string | null;
    outcome: string;
    detail: Record<string, unknown>;
  };
  const entries = async (query: string) =>
    ((await (await admin.request.get(`/api/audit?${query}&limit=100`)).json()) as { data: Entry[] }).data;
  await expect
    .poll(async () =>
      (await entries(`target=${viewId}`))
        .map((e) => `${e.user} ${e.action} ${e.outcome} ${JSON.stringify(e.detail)}`)
        .reverse(),
    )
    .toEqual([
      'grace@example.com view_save ok {"change":"create","shared":false}',
      'grace@example.com view_save forbidden_role {"changes":["shared"],"shared":true}',
      'grace@example.com view_save ok {"changes":["default"]}',
      'grace@example.com view_save ok {"changes":["name"]}',
      'grace@example.com view_delete ok {}',
    ]);
  await expect
    .poll(async () => (await entries(`target=${teamId}`)).map((e) => `${e.user} ${e.action} ${e.outcome}`).reverse())
    .toEqual([
      'admin@example.com view_save ok',
      'admin@example.com view_save ok',
      'admin@example.com view_save ok',
      'grace@example.com view_save forbidden',
      'grace@example.com view_delete forbidden',
    ]);
  await admin.goto(`/audit?action=view_save&target=${teamId}`);
  await expect(
    admin.getByRole('region', { name: 'Audit entries' }).getByRole('row').filter({ hasText: 'view_save' }),
  ).toHaveCount(4);
  await grace.context().close();
  await admin.context().close();
});

test('the views API refuses bad input by name, other accounts’ and other people’s views, and writes from other sites', async ({
  browser,
}) => {
  const grace = await signedIn(browser, 'grace@example.com');
  const post = (data: unknown, headers: Record<string, string> = {}) =>
    grace.request.post('/api/views', { data, headers });
  const expect400 = async (data: unknown, message: RegExp) => {
    const res = await post(data);
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({
      status: 'error',
      code: 'bad_request',
      message: expect.stringMatching(message),
    });
  };
  await expect400({ name: '' }, /^Invalid name/);
  await expect400({ name: 'x'.repeat(81) }, /^Invalid name: name must be at most 80/);
  await expect400({ name: 'ok', query: 'amountMin=1.5' }, /^Invalid query.amountMin/);
  await expect400({ name: 'ok', columns: ['reference', 'secret'] }, /^Invalid columns/);
  await expect400({ name: 'ok', limit: 7 }, /^Invalid limit/);
  expect((await grace.request.get('/api/views/view_doesnotexist')).status()).toBe(404);
  expect((await grace.request.get('/api/views/not-a-view')).status()).toBe(400);
  // Another site's page cannot save for her: the browser says so in Sec-Fetch-Site.
  const forged = await post({ name: 'forged' }, { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' });
  expect(forged.status()).toBe(403);
  // A form post (not JSON) is refused.
  const form = await grace.request.post('/api/views', { form: { name: 'form' } });
  expect(form.status()).toBe(400);
  expect((await grace.request.patch('/api/views')).headers()['allow']).toBe('GET, POST');
  await grace.context().close();
});
