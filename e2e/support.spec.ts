import type { Page } from '@playwright/test';
import type { Collection } from '../lib/api/schemas';
import { expect, expectHydrated, test } from './fixtures';

/**
 * A support agent's records: pin one, find it again after a reload in the
 * Search box's list and on Lookup, clear them; and the support note a reply
 * is written from.
 */
const STORAGE_KEY = 'collections-console:records';

async function openRecord(page: Page, path: string) {
  await page.goto(path);
  await expectHydrated(page.getByRole('button', { name: /^(Pin|Unpin)$/ }));
}

async function emptySearchList(page: Page) {
  const box = page.getByRole('combobox', { name: 'Search' });
  await expectHydrated(box);
  await box.focus();
  return page.getByRole('listbox', { name: 'Pinned and recently viewed' });
}

test('pin a collection, reload, and find it in the Search box’s list and on Lookup; Clear forgets them', async ({
  page,
  request,
  sandbox,
}) => {
  const [pinnedId, viewedId] = sandbox.demo.collections.integrated;
  const pinned = ((await (await request.get(`/api/collections/${pinnedId}`)).json()) as { data: Collection }).data;
  const viewed = ((await (await request.get(`/api/collections/${viewedId}`)).json()) as { data: Collection }).data;
  const provider = sandbox.demo.providers[0]!;

  await openRecord(page, `/collections/${pinnedId}`);
  await page.getByRole('button', { name: 'Pin' }).click();
  await expect(page.getByRole('button', { name: 'Unpin' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Unpin' })).toBeVisible();

  await openRecord(page, `/collections/${viewedId}`);
  await openRecord(page, `/providers/${provider}`);

  await page.goto('/collections');
  const list = await emptySearchList(page);
  const options = list.getByRole('option');
  await expect(options).toHaveCount(3);
  await expect(options.nth(0)).toContainText(pinned.reference);
  await expect(options.nth(0)).toContainText('Pinned');
  await expect(options.nth(1)).toContainText('Recent');
  await expect(list.getByRole('option', { name: new RegExp(viewed.reference) })).toBeVisible();
  // Keyboard: down to the pinned one, Enter opens it.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/collections/${pinnedId}$`));

  await page.goto('/lookup');
  const section = page.getByRole('region', { name: 'Pinned and recently viewed' });
  await expect(section.getByRole('region', { name: 'Pinned' }).getByRole('link')).toHaveText([pinned.reference]);
  await expect(section.getByRole('region', { name: 'Recently viewed' }).getByRole('link')).toHaveCount(3);
  // Nothing about the contact is kept in the browser.
  const stored = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);
  for (const secret of [pinned.contact.email, pinned.contact.phone, pinned.contact.lastName]) {
    expect(stored).not.toContain(secret);
  }
  await section.getByRole('button', { name: 'Clear' }).click();
  await expect(section.getByText('None yet.')).toHaveCount(2);
  expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY)).toBeNull();
});

test('corrupt or foreign data under the key is ignored, never a broken page', async ({ page, sandbox }) => {
  await page.addInitScript((key) => localStorage.setItem(key, '{"version":1,"recent":"oops"'), STORAGE_KEY);
  await page.goto('/collections');
  const list = await emptySearchList(page);
  await expect(list).toBeHidden();
  await openRecord(page, `/collections/${sandbox.demo.collections.integrated[0]}`);
  await page.getByRole('button', { name: 'Pin' }).click();
  await expect(page.getByRole('button', { name: 'Unpin' })).toBeVisible();
});

test('Copy as support note puts the collection on the clipboard as plain text', async ({
  page,
  request,
  sandbox,
  baseURL,
}) => {
  const id = sandbox.demo.examples.multipleLineItems ?? sandbox.demo.collections.integrated[0]!;
  const c = ((await (await request.get(`/api/collections/${id}`)).json()) as { data: Collection }).data;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await openRecord(page, `/collections/${id}`);
  await page.getByRole('button', { name: 'Copy as support note' }).click();
  await expect(page.getByText('Support note copied')).toBeVisible();
  const lines = (await page.evaluate(() => navigator.clipboard.readText())).split('\n');
  const utc = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  expect(lines[0]).toBe(`Collection ${c.reference}`);
  expect(lines).toContain(`Created: ${utc(c.createdAt)}`);
  expect(lines).toContain(`Contact: ${c.contact.firstName} ${c.contact.lastName}`);
  // How to pay (every option the record carries), then the line items, each a "- " line under its heading.
  const under = (heading: string) => {
    const from = lines.findIndex((l) => l.startsWith(heading));
    const rest = lines.slice(from + 1);
    const end = rest.findIndex((l) => !l.startsWith('- '));
    return rest.slice(0, end < 0 ? rest.length : end);
  };
  expect(under('How to pay')).toHaveLength(c.payable.options.length);
  expect(under('Line items')).toHaveLength(c.metadata.length);
  expect(lines.at(-1)).toBe(`Dashboard: ${baseURL}/collections/${id}`);
  const text = lines.join('\n');
  for (const secret of [c.contact.email, c.contact.phone, c.contact.id]) expect(text).not.toContain(secret);
});
