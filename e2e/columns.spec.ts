import { expect, expectHydrated, test } from './fixtures';

/** The Columns control (contract section 13): show, hide, reorder by keyboard, remembered, reset. */
test.describe('Columns', () => {
  test('hides and shows columns, moves one by keyboard, remembers the choice after a reload, and resets', async ({
    page,
    axe,
  }) => {
    await page.goto('/collections');
    const table = page.getByRole('region', { name: 'Collections table' });
    const headers = () => table.getByRole('columnheader').allInnerTexts();
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    expect((await headers()).map((h) => h.toLowerCase())).toEqual([
      'reference',
      'contact',
      'amount',
      'status',
      'methods',
      'follow-up',
      'created',
      'id',
    ]);

    const button = page.getByRole('button', { name: 'Columns' });
    await expectHydrated(button);
    await button.click();
    await page.getByRole('checkbox', { name: 'Methods' }).uncheck();
    await page.getByRole('checkbox', { name: 'Updated' }).check();
    const up = page.getByRole('button', { name: 'Move Amount up' });
    await up.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await axe(page);
    await page.keyboard.press('Escape');
    const chosen = ['amount', 'reference', 'contact', 'status', 'follow-up', 'created', 'updated', 'id'];
    expect((await headers()).map((h) => h.toLowerCase())).toEqual(chosen);

    // Remembered by this browser, and the server paints it that way first.
    const html = await (await page.request.get('/collections')).text();
    expect(html.indexOf('>Amount<')).toBeLessThan(html.indexOf('>Reference<'));
    await page.reload();
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    expect((await headers()).map((h) => h.toLowerCase())).toEqual(chosen);

    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('button', { name: 'Reset columns' }).click();
    expect((await headers()).map((h) => h.toLowerCase())).toContain('methods');
    expect((await headers()).map((h) => h.toLowerCase())).not.toContain('updated');
  });

  test('ignores a tampered columns cookie: the default columns', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'cc-columns', value: 'status%2C%3Cscript%3E', url: baseURL! }]);
    await page.goto('/collections');
    const table = page.getByRole('region', { name: 'Collections table' });
    await expect(table.getByRole('columnheader', { name: 'Methods' })).toBeVisible();
    await expect(table.getByRole('columnheader')).toHaveCount(8);
  });
});
