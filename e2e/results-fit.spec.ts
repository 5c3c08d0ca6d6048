import type { Page } from '@playwright/test';
import { expect, indexReady, test } from './fixtures';

/**
 * Results that fit (issue 75, item 2): at 1280×800 with the default columns, search results, the
 * collections list, a filtered list and a contact's page show every column without scrolling sideways,
 * the table's region or the page.
 */
test.use({ viewport: { width: 1280, height: 800 } });
test.beforeEach(async ({ request }) => indexReady(request));

/** How far the table's region and the page would scroll sideways (0 when everything fits). */
async function overflow(page: Page) {
  const region = page.getByRole('region', { name: 'Collections table' });
  await expect(region.getByRole('row').nth(1)).toBeVisible();
  const table = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
  const document = await page.evaluate(() => {
    const root = window.document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  return { table, document };
}

/** Every header cell and the last cell of the first row are inside the region, none cut off at its edge. */
async function expectAllColumnsInView(page: Page) {
  const region = page.getByRole('region', { name: 'Collections table' });
  const box = (await region.boundingBox())!;
  const cells = [
    ...(await region.getByRole('columnheader').all()),
    region.getByRole('row').nth(1).getByRole('cell').last(),
  ];
  for (const cell of cells) {
    const b = (await cell.boundingBox())!;
    expect(b.x + b.width, await cell.innerText()).toBeLessThanOrEqual(box.x + box.width + 0.5);
  }
}

/**
 * The first row's reference links its record, and its ID reads at both ends: cut in the middle at most, its
 * last six characters whole and at least eight of its start shown ("pay_9IgE…ibsMd5"), the whole id as text.
 */
async function expectIdReadable(page: Page) {
  const row = page.getByRole('region', { name: 'Collections table' }).getByRole('row').nth(1);
  const href = await row.getByRole('link').first().getAttribute('href');
  const id = href!.replace('/collections/', '');
  const idCell = row.getByRole('cell').filter({ has: page.getByRole('button', { name: `Copy id ${id}` }) });
  await expect(idCell).toContainText(id);
  const [start, end] = await idCell
    .getByText(id)
    .evaluate((el) => [...el.children].map((s) => ({ shown: s.clientWidth, whole: s.scrollWidth })));
  expect(end!.shown, `the end of ${id}`).toBeGreaterThanOrEqual(end!.whole);
  // The last span's six characters give the width of one (the id is monospace).
  expect(start!.shown / (end!.whole / 6), `characters shown of the start of ${id}`).toBeGreaterThanOrEqual(8);
}

for (const [name, path] of [
  ['search results for a name', '/search?q=Abdulahi'],
  ['the collections list', '/collections'],
  ['a filtered list', '/collections?status=completed&sort=amount_desc'],
  ['a searched list', '/collections?q=Abdulahi'],
] as const) {
  test(`${name} fit 1280 px without scrolling sideways`, async ({ page }) => {
    await page.goto(path);
    expect(await overflow(page), path).toEqual({ table: 0, document: 0 });
    await expectAllColumnsInView(page);
    await expectIdReadable(page);
  });
}

test("a contact's page fits 1280 px without scrolling sideways", async ({ page }) => {
  await page.goto('/search?q=Abdulahi');
  const contact = page.getByRole('region', { name: 'Collections table' }).locator('a[href^="/contacts/"]').first();
  const href = await contact.getAttribute('href');
  await page.goto(href!);
  expect(await overflow(page), href!).toEqual({ table: 0, document: 0 });
  await expectAllColumnsInView(page);
  await expectIdReadable(page);
});
