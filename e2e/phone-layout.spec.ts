import type { Page } from '@playwright/test';
import { expect, expectHydrated, test } from './fixtures';

/**
 * A phone (390 × 844): the columns a reader adds with Columns show on the list's cards, each under its
 * label; the Columns panel fits the screen and its controls are large enough to tap; `/status` wraps its
 * text between words (only a long token, a URL or a path, may break inside).
 */
test.use({ viewport: { width: 390, height: 844 } });

/** What the live list's API gives of a collection (the upstream's record), as far as this test reads it. */
type Row = { reference: string; metadata: unknown[]; contact: { phone: string } };
const digits = (text: string) => text.replace(/\D/g, '');

/** Each word of the page's main text that a line break cuts in two: "e|mbedded" (a long token may break). */
function wordsCut(page: Page) {
  return page.getByRole('main').evaluate((main) => {
    const cut: string[] = [];
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // A long token (a path, a URL) is marked to break anywhere: only there may a line cut a word.
      if (node.parentElement && getComputedStyle(node.parentElement).overflowWrap === 'anywhere') continue;
      for (const word of (node.textContent ?? '').matchAll(/[A-Za-z]{2,24}/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) cut.push(word[0]);
      }
    }
    return cut;
  });
}

test('columns added with Columns show on the cards, labelled; the panel fits the phone and its targets tap', async ({
  page,
  request,
}) => {
  const { data } = (await (await request.get('/api/collections?page=1&limit=10')).json()) as { data: Row[] };
  await page.goto('/collections');
  const region = page.getByRole('region', { name: 'Collections table' });
  await expect(region.getByRole('row').nth(1)).toBeVisible();

  const button = page.getByRole('button', { name: 'Columns' });
  await expectHydrated(button);
  await button.click();
  const added = ['Phone', 'Line items', 'Updated'] as const;
  const targets = [
    ...[...added, 'Methods'].map((name) => page.locator('label').filter({ has: page.getByRole('checkbox', { name }) })),
    page.getByRole('button', { name: 'Move Amount up' }),
    page.getByRole('button', { name: 'Move Amount down' }),
    page.getByRole('button', { name: 'Reset columns' }),
  ];
  for (const [i, target] of targets.entries()) {
    const name = `target ${i}`;
    // Within the screen's width, and at least 24 px tall (a checkbox's target is its label: WCAG 2.5.8).
    await target.scrollIntoViewIfNeeded();
    const box = (await target.boundingBox())!;
    expect(box.x, name).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, name).toBeLessThanOrEqual(390);
    expect(box.height, name).toBeGreaterThanOrEqual(24);
  }
  for (const name of added) await page.getByRole('checkbox', { name }).check();
  await page.keyboard.press('Escape');

  // The first card: its reference's row, with each added column shown under its label.
  const row = data[0]!;
  const card = region.getByRole('row').filter({ has: page.getByRole('link', { name: row.reference, exact: true }) });
  const phone = card.getByRole('cell', { name: /^Phone: / });
  await expect(phone).toBeVisible();
  // However the list shows a phone, its last four digits tell people apart.
  expect(digits((await phone.textContent())!)).toMatch(new RegExp(`${digits(row.contact.phone).slice(-4)}$`));
  const items = card.getByRole('cell', { name: /^Line items: / });
  await expect(items).toBeVisible();
  await expect(items).toHaveText(String(row.metadata.length));
  await expect(card.getByRole('cell', { name: /^Updated: / })).toBeVisible();
  // Each on the card, inside the screen; the defaults that have no place (Methods) stay a tap away on the record.
  for (const cell of [phone, items]) {
    const box = (await cell.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  // Reference, contact, amount, status, created and the three added: methods, follow-up and id are not shown.
  await expect(card.getByRole('cell')).toHaveCount(8);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('/status wraps between words: no word is cut across two lines', async ({ page }) => {
  await page.goto('/status');
  await expect(page.getByRole('heading', { level: 1, name: 'Status' })).toBeVisible();
  const config = page.getByRole('region', { name: 'Effective configuration' });
  await expect(config.getByText('(the embedded sandbox)')).toBeVisible();
  expect(await wordsCut(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
