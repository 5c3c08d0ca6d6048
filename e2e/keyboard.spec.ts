import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectHydrated, indexReady, test } from './fixtures';

/**
 * A support agent's keyboard: Previous / Next across a page boundary with
 * `j` / `k`, moving through a table's rows, going places with `g`, the
 * shortcuts dialog, and a record's own keys.
 */
const ids = async (request: APIRequestContext, page: number, limit: number) =>
  (
    (await (await request.get(`/api/collections?page=${page}&limit=${limit}`)).json()) as { data: { id: string }[] }
  ).data.map((c) => c.id);

/** A row's link in the page's table (the header's sandbox examples link to records too). */
const rowLink = (page: Page, id: string) =>
  page.getByRole('region', { name: 'Collections table' }).locator(`a[href="/collections/${id}"]`).first();

const prevNext = (page: Page) => page.getByRole('navigation', { name: 'Previous and next' });

async function hydratedList(page: Page, path: string) {
  await page.goto(path);
  await expectHydrated(page.getByRole('combobox', { name: 'Search' }));
  await expectHydrated(page.getByRole('region', { name: 'Collections table' }));
}

test('Previous and Next walk the list across a page boundary, with j and k', async ({ page, request }) => {
  const first = await ids(request, 1, 10);
  const second = await ids(request, 2, 10);
  const count = ((await (await request.get('/api/collections?limit=1')).json()) as { meta: { count: number } }).meta
    .count;
  await hydratedList(page, '/collections?limit=10');
  await rowLink(page, first[9]!).click();
  await expect(page).toHaveURL(new RegExp(`/collections/${first[9]}$`));
  await expect(prevNext(page)).toContainText(`10 of ${count.toLocaleString('en')}`);
  await expect(prevNext(page).getByRole('link', { name: 'Previous' })).toHaveAttribute(
    'href',
    `/collections/${first[8]}`,
  );
  // The next one is on page 2: read, then offered.
  await expect(prevNext(page).getByRole('link', { name: 'Next' })).toHaveAttribute('href', `/collections/${second[0]}`);

  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`/collections/${second[0]}$`));
  await expect(prevNext(page)).toContainText(`11 of ${count.toLocaleString('en')}`);
  await expect(prevNext(page).getByRole('link', { name: 'Next' })).toHaveAttribute('href', `/collections/${second[1]}`);
  await expect(prevNext(page).getByRole('link', { name: 'Previous' })).toHaveAttribute(
    'href',
    `/collections/${first[9]}`,
  );
  await page.keyboard.press('k');
  await expect(page).toHaveURL(new RegExp(`/collections/${first[9]}$`));
  await expect(prevNext(page)).toContainText('10 of');
});

test('Previous and Next walk search results across a page boundary too', async ({ page, request }) => {
  await indexReady(request);
  const hits = async (n: number) =>
    (await (await request.get(`/api/search?q=INV-2026&page=${n}&limit=10`)).json()) as {
      data: { id: string }[];
      meta: { count: number };
    };
  const [first, second] = [await hits(1), await hits(2)];
  expect(first.meta.count).toBeGreaterThan(10);
  await page.goto('/search?q=INV-2026&limit=10');
  await expectHydrated(page.getByRole('combobox', { name: 'Search' }));
  await rowLink(page, first.data[9]!.id).click();
  await expect(page).toHaveURL(new RegExp(`/collections/${first.data[9]!.id}$`));
  await expect(prevNext(page)).toContainText(`10 of ${first.meta.count.toLocaleString('en')}`);
  await expect(prevNext(page).getByRole('link', { name: 'Next' })).toHaveAttribute(
    'href',
    `/collections/${second.data[0]!.id}`,
  );
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`/collections/${second.data[0]!.id}$`));
  await expect(prevNext(page)).toContainText('11 of');
});

test('opened from elsewhere (a link, the address bar), a collection has no Previous / Next', async ({
  page,
  sandbox,
}) => {
  await page.goto(`/collections/${sandbox.demo.collections.integrated[0]}`);
  await expectHydrated(page.getByRole('button', { name: /^(Pin|Unpin)$/ }));
  await expect(prevNext(page)).toHaveCount(0);
});

test('j and k move through a table’s rows, Enter opens one, and its page knows where it stands', async ({
  page,
  request,
}) => {
  const first = await ids(request, 1, 25);
  await hydratedList(page, '/collections?limit=25');
  await page.keyboard.press('j');
  await expect(rowLink(page, first[0]!)).toBeFocused();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  const second = rowLink(page, first[1]!);
  await expect(second).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/collections/${first[1]}$`));
  await expect(prevNext(page)).toContainText('2 of');
});

test('g then o, c or l goes to Overview, Collections, Lookup; nothing fires while typing', async ({ page }) => {
  await hydratedList(page, '/collections');
  await page.keyboard.press('g');
  await page.keyboard.press('l');
  await expect(page).toHaveURL(/\/lookup$/);
  await expectHydrated(page.getByRole('button', { name: 'Look up' }));
  await page.keyboard.press('g');
  await page.keyboard.press('o');
  await expect(page).toHaveURL(/\/overview/);
  await hydratedList(page, '/collections');
  const box = page.getByRole('combobox', { name: 'Search' });
  await box.focus();
  await page.keyboard.type('gl?jk');
  await expect(box).toHaveValue('gl?jk');
  await expect(page).toHaveURL(/\/collections$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('? opens the Keyboard shortcuts dialog: focus inside, Escape closes, focus comes back; axe-clean', async ({
  page,
  axe,
}) => {
  await hydratedList(page, '/collections');
  const region = page.getByRole('region', { name: 'Collections table' });
  await region.focus();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await expect(dialog.getByRole('row')).toHaveCount(11);
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Tab');
    await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await axe(page);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(region).toBeFocused();
  // Close by its button too.
  await page.keyboard.press('?');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
});

test('on a collection, c copies its id and p pins it', async ({ page, sandbox, baseURL }) => {
  const id = sandbox.demo.collections.integrated[2]!;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await page.goto(`/collections/${id}`);
  await expectHydrated(page.getByRole('button', { name: 'Pin' }));
  await page.keyboard.press('c');
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(id);
  await page.keyboard.press('p');
  await expect(page.getByRole('button', { name: 'Unpin' })).toBeVisible();
  await page.keyboard.press('p');
  await expect(page.getByRole('button', { name: 'Pin' })).toBeVisible();
});
