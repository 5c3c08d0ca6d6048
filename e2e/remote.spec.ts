import { expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { E2E } from './env';
import { askedAgainAfterIdle } from './keep-alive';

/**
 * The suite a deployment can be checked with (contract section 11): read-only,
 * no sandbox fault or fixture id; every id comes from the deployment's own
 * list. `npm run test:e2e:remote` runs it against E2E_BASE_URL with
 * E2E_USER / E2E_PASSWORD (HTTP Basic); in `npm test` it runs against the gated
 * dashboard, a separately started server with Basic access.
 */
const remote = process.env.E2E_BASE_URL;
test.use({
  baseURL: remote ?? E2E.gatedURL,
  httpCredentials: remote
    ? process.env.E2E_USER
      ? { username: process.env.E2E_USER, password: process.env.E2E_PASSWORD ?? '' }
      : undefined
    : E2E.gatedUser,
});

type Row = { id: string; reference: string; amount: { value: number; currency: string } };

test('@remote the deployment is alive and ready', async ({ request }) => {
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect((await health.json()).message).toBe('ok');
  const ready = await request.get('/api/ready');
  expect(ready.status(), 'GET /api/ready').toBe(200);
});

test('@remote the list shows its rows and pages forward and back', async ({ page, request }) => {
  const res = await request.get('/api/collections?limit=10');
  expect(res.status()).toBe(200);
  const { data, meta } = (await res.json()) as { data: Row[]; meta: { count: number; next: number | null } };
  await page.goto('/collections');
  const rows = page
    .getByRole('region', { name: 'Collections table' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
  await expect(rows).toHaveCount(data.length);
  if (data[0]) {
    // A live deployment adds collections as it goes (the sandbox's activity does, one every few seconds): the
    // page's first row was the list's first when the page was read, so the API lists it among its first
    // rows just after (it failed once in CI: a collection made between the API's read and the page's).
    const shown = (await rows.first().getByRole('link').first().textContent())?.trim();
    const { data: now } = (await (await request.get('/api/collections?limit=10')).json()) as { data: Row[] };
    expect(now.map((r) => r.reference || '(no reference)')).toContain(shown);
  }
  test.skip(!meta.next, 'the deployment has a single page of collections');
  const next = page.getByRole('button', { name: 'Next page' });
  await next.click();
  await expect(page).toHaveURL(/page=2/);
  await page.getByRole('button', { name: 'Previous page' }).click();
  await expect(page).toHaveURL((url) => !url.searchParams.has('page') || url.searchParams.get('page') === '1');
});

test('@remote a collection from the list opens from the Search box, with its amount', async ({ page, request }) => {
  const { data } = (await (await request.get('/api/collections?limit=1')).json()) as { data: Row[] };
  test.skip(!data[0], 'the deployment has no collections');
  const c = data[0]!;
  await page.goto('/collections');
  const box = page.getByRole('combobox', { name: 'Search' });
  await expect(async () => {
    await box.fill(c.id);
    await box.press('Enter');
    await expect(page).toHaveURL((url) => url.pathname === `/collections/${c.id}`, { timeout: 2_000 });
  }).toPass();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(c.amount.currency);
});

test('@remote the overview answers when the index is on', async ({ page, request }) => {
  const status = (await (await request.get('/api/index/status')).json()) as { data: { state: string } };
  test.skip(status.data.state === 'off', 'the deployment runs without the index');
  await page.goto('/overview');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
});

test('@remote the list has no serious or critical axe violations', async ({ page }) => {
  await page.goto('/collections');
  await expect(page.getByRole('heading', { level: 1, name: 'Collections' })).toBeVisible();
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual(
    [],
  );
});

test('@remote a connection idle for 6 s is still open for the next request', async () => {
  // Node's own default closes it after 5 s, which a load balancer reusing its idle connections meets as a reset
  // (a 502 to the user); the image's server keeps it 65 s (KEEP_ALIVE_TIMEOUT).
  const { first, second } = await askedAgainAfterIdle(new URL('/api/health', remote ?? E2E.gatedURL).href, 6_000);
  expect([first.status, second.status]).toEqual([200, 200]);
  expect(second.reused, 'the second request went over the first one’s connection').toBe(true);
});
