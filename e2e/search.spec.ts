import type { Page } from '@playwright/test';
import { expect, expectHydrated, indexReady, test } from './fixtures';

/**
 * Finding collections without their id, as a support agent and an account
 * owner would: the header's Search box, the results page, filters and sort on
 * the list, and the index's state. Values come from the sandbox's fixtures.
 */
async function openPage(page: Page, path: string) {
  await page.goto(path);
  const box = page.getByRole('combobox', { name: 'Search' });
  await expectHydrated(box);
  return box;
}

const resultsTable = (page: Page) => page.getByRole('region', { name: 'Collections table' });

/** The results hold the fixture's one row, saying what it matched on, linked to its record. */
async function expectFound(page: Page, q: string, id: string, reference: string, matched: string) {
  const row = resultsTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: reference }) });
  await expect(row, q).toHaveCount(1);
  await expect(row.getByRole('cell').nth(4), q).toContainText(matched);
  await expect(row.getByRole('link', { name: reference })).toHaveAttribute('href', `/collections/${id}`);
}

test.beforeEach(async ({ request }) => indexReady(request));

test.describe('the Search box', () => {
  test('finds a fixture collection by e-mail, phone, last four digits, name and reference', async ({
    page,
    sandbox,
  }) => {
    const [id, c] = Object.entries(sandbox.demo.contacts)[1]!;
    const digits = c.phone.replace(/\D/g, '');
    const queries: [string, string][] = [
      [c.email, 'E-mail'],
      [c.phone.replace(/\s/g, ''), 'Phone'],
      [digits.slice(-4), 'Phone, last 4'],
      [`${c.lastName.toUpperCase()} ${c.firstName}`, 'Name'],
      [c.reference, 'Reference'],
    ];
    for (const [q, matched] of queries) {
      const box = await openPage(page, '/collections');
      await box.fill(q);
      // Suggestions as you type, then Enter for every result.
      await expect(page.getByRole('listbox', { name: 'Search suggestions' }), q).toBeVisible();
      await box.press('Enter');
      await expect(page, q).toHaveURL((url) => url.pathname === '/search' && url.searchParams.get('q') === q);
      await expectFound(page, q, id, c.reference, matched);
      await expect(page.getByText(/From the index, as of .+ · \d+ of \d+ indexed/)).toBeVisible();
    }
  });

  test('finds a fixture collection from a number as customers say it, and from the e-mail before its @', async ({
    page,
    sandbox,
  }) => {
    const [id, c] = Object.entries(sandbox.demo.contacts).find(([, c]) => c.phone.startsWith('+234'))!;
    // "+234 80 123 4567" as a customer in Nigeria says it, with (0) after the code, and dialled from abroad.
    const [, code, rest] = /^\+(\d+) (.*)$/.exec(c.phone)!;
    const local = c.email.slice(0, c.email.indexOf('@'));
    const queries: [string, string][] = [
      [`0${rest}`, 'Phone, national'],
      [`+${code} (0) ${rest}`, 'Phone'],
      [`00${code} ${rest}`, 'Phone'],
      [local, 'E-mail name'],
      [`${local}@wrong.example`, 'E-mail name'],
    ];
    for (const [q, matched] of queries) {
      await page.goto(`/search?${new URLSearchParams({ q })}`);
      await expectFound(page, q, id, c.reference, matched);
    }
    // People told apart: the e-mail and phone beside the name, in full as the record page shows them
    // (VIEWER_CONTACT_DETAILS masks them for viewers: e2e/contact-details.spec.ts).
    const contact = resultsTable(page)
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: c.reference }) })
      .getByRole('cell')
      .nth(1);
    await expect(contact).toContainText(`${c.firstName} ${c.lastName}`);
    await expect(contact).toContainText(c.email);
    await expect(contact).toContainText(c.phone);
  });

  test('finds a fixture collection from a name with a slip of a letter, the start of a name, and a part of its reference', async ({
    page,
    sandbox,
  }) => {
    const [id, c] = Object.entries(sandbox.demo.contacts).find(
      ([, c]) => c.lastName.length >= 5 && c.firstName.length > 4,
    )!;
    // The surname's last vowel changed ("Abdullahi" → "Abdullaha"): it sounds the same.
    const at = Math.max(...[...'aeiou'].map((v) => c.lastName.toLowerCase().lastIndexOf(v)));
    const slip =
      c.lastName.slice(0, at) + (c.lastName[at]!.toLowerCase() === 'a' ? 'e' : 'a') + c.lastName.slice(at + 1);
    const queries: [string, string][] = [
      [`${c.firstName} ${slip}`, 'Name, sounds like'],
      [c.firstName.slice(0, 4), 'Name, start'],
      // A part of the reference from its middle, and from its end ("00254" for INV-2026-00254).
      [c.reference.slice(2, 7), 'Reference, part'],
      [c.reference.slice(-5), 'Reference, part'],
    ];
    for (const [q, matched] of queries) {
      await page.goto(`/search?${new URLSearchParams({ q, limit: '100' })}`);
      await expectFound(page, q, id, c.reference, matched);
    }
  });

  test('finds a collection the list does not return once it was opened by its id, and counts it apart', async ({
    page,
    request,
    sandbox,
  }) => {
    const id = sandbox.demo.collections.notIntegrated[1]!;
    const { data } = (await (await request.get(`/api/collections/${id}`)).json()) as {
      data: { reference: string; type: string; contact: { firstName: string; lastName: string } };
    };
    expect(data.type).not.toBe('integrated');
    await page.goto(`/collections/${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Written to the index in the background: found by its reference and its contact's name, like any other.
    await expect
      .poll(async () => {
        await page.goto(`/search?${new URLSearchParams({ q: data.reference })}`);
        return resultsTable(page).getByRole('link', { name: data.reference, exact: true }).count();
      })
      .toBe(1);
    await expectFound(page, data.reference, id, data.reference, 'Reference');
    // The index's status is read at most every 2 s: the count follows within that.
    await expect(async () => {
      await page.reload();
      await expect(page.getByText(/From the index, as of .+ · \d+ of \d+ indexed \+ \d+ opened by id/)).toBeVisible({
        timeout: 1_000,
      });
    }).toPass();
  });

  test('says how it read a number that matches nothing, and offers its last four digits', async ({ page }) => {
    await page.goto(`/search?${new URLSearchParams({ q: '0809 000 0001' })}`);
    await expect(page.getByText('No collection matches “0809 000 0001”')).toBeVisible();
    await expect(page.getByText(/Read as .*a phone number in Nigeria \(\+234\): 0809 000 0001/)).toBeVisible();
    const tryInstead = page.getByRole('list', { name: 'Try instead' });
    await tryInstead.getByRole('link', { name: '0001', exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/search' && url.searchParams.get('q') === '0001');
  });

  test('opens a suggestion with the arrow keys and Enter, and Escape closes the list', async ({ page, sandbox }) => {
    const [id, c] = Object.entries(sandbox.demo.contacts)[0]!;
    const box = await openPage(page, '/collections');
    await box.fill(c.email);
    const listbox = page.getByRole('listbox', { name: 'Search suggestions' });
    const option = listbox.getByRole('option', { name: new RegExp(c.reference) });
    await expect(option).toBeVisible();
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await box.press('Escape');
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await box.press('ArrowDown');
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!);
    await box.press('Enter');
    await expect(page).toHaveURL(`/collections/${id}`);
  });

  test('says what it searched and how fresh the index is when nothing matches', async ({ page }) => {
    await page.goto('/search?q=nobody%40nowhere.example');
    await expect(page.getByText('No collection matches “nobody@nowhere.example”')).toBeVisible();
    await expect(page.getByText(/From the index, as of/)).toBeVisible();
    await expect(page.getByText(/indexed collections/)).toBeVisible();
  });

  test('treats wildcards and quotes as plain text', async ({ page }) => {
    for (const q of ['%', '_', '"\'', '\\']) {
      await page.goto(`/search?${new URLSearchParams({ q })}`);
      await expect(page.getByText(`No collection matches “${q}”`), q).toBeVisible();
    }
  });
});

test.describe('filters and sort on /collections', () => {
  test('filters by status, currency, dates and amount, sorts by amount, and keeps it all in the URL', async ({
    page,
    request,
  }) => {
    const facets = (await (await request.get('/api/collections?sort=amount&limit=100&status=pending')).json()) as {
      data: { amount: { currency: string; value: number }; createdAt: string }[];
    };
    const currency = facets.data[0]!.amount.currency;

    await openPage(page, '/collections');
    await page.getByRole('button', { name: /^Status/ }).click();
    await page
      .getByRole('group', { name: 'Status' })
      .getByRole('checkbox', { name: /^Pending/ })
      .check();
    await expect(page).toHaveURL(/status=pending/);
    await page.getByRole('button', { name: /^Currency/ }).click();
    await page
      .getByRole('group', { name: 'Currency' })
      .getByRole('checkbox', { name: new RegExp(`^${currency}`) })
      .check();
    await expect(page).toHaveURL(new RegExp(`currency=${currency}`));
    await page.getByLabel('Created from').fill('2020-01-01');
    await page.getByLabel('Created to').fill('2030-12-31');
    await page.getByLabel('Minimum amount').fill('1');
    await page.getByLabel('Maximum amount').fill('999999999');
    await page.getByLabel('Maximum amount').press('Enter');
    await expect(page).toHaveURL(/amountMax=999999999/);
    await page.getByLabel('Sort by').selectOption({ label: 'Amount, low to high' });
    await expect(page).toHaveURL(/sort=amount/);

    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({
      status: 'pending',
      currency,
      createdFrom: '2020-01-01',
      createdTo: '2030-12-31',
      amountMin: '1',
      amountMax: '999999999',
      sort: 'amount',
    });
    await expect(page.getByText(/From the index, as of .+ · \d+ of \d+ indexed/)).toBeVisible();
    const amounts = await resultsTable(page)
      .getByRole('row')
      .filter({ has: page.getByRole('cell') })
      .evaluateAll((rows) => rows.map((r) => r.querySelectorAll('td')[2]!.textContent!));
    expect(amounts.length).toBeGreaterThan(0);
    const values = amounts.map((a) => Number(a.replace(/[^\d]/g, '')));
    expect(values).toEqual([...values].sort((a, b) => a - b));
    for (const a of amounts) expect(a).toContain(currency);

    // Shared and reloaded, the view is the same; back steps through the filters.
    await page.reload();
    await expect(page.getByLabel('Sort by')).toHaveValue('amount');
    await page.goBack();
    await expect(page).not.toHaveURL(/sort=amount/);
    await page.goForward();
    await expect(page).toHaveURL(/sort=amount/);

    // Every row links to the live record.
    const link = resultsTable(page).getByRole('link').first();
    const href = (await link.getAttribute('href'))!;
    await link.click();
    await expect(page).toHaveURL(href);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('keeps a bad range as typed, with a message naming it, and leaves the URL alone', async ({ page }) => {
    await openPage(page, '/collections?status=pending');
    await page.getByLabel('Minimum amount').fill('10');
    await page.getByLabel('Maximum amount').fill('5');
    await page.getByLabel('Maximum amount').press('Enter');
    await expect(
      page.getByRole('alert').filter({ hasText: 'amountMin must not be more than amountMax' }),
    ).toBeVisible();
    await expect(page.getByLabel('Minimum amount')).toHaveValue('10');
    await expect(page.getByLabel('Minimum amount')).toHaveAttribute('aria-invalid', 'true');
    // The minimum alone was fine and applied when focus left it; the backwards range never reached the URL.
    expect(new URL(page.url()).searchParams.has('amountMax')).toBe(false);
  });

  test('takes amounts as people type them and corrects the URL to the API’s integers', async ({ page }) => {
    await openPage(page, '/collections?status=pending');
    await page.getByLabel('Minimum amount').fill('1,000');
    await page.getByLabel('Maximum amount').fill('₦ 999 999 999');
    await page.getByLabel('Maximum amount').press('Enter');
    await expect(page).toHaveURL(/amountMin=1000&amountMax=999999999/);
    // A URL typed by hand the same way is corrected (the API itself stays strict: a 400 naming amountMin).
    await page.goto('/collections?status=pending&amountMin=1%2C000');
    await expect(page).toHaveURL(/amountMin=1000(&|$)/);
    const strict = await page.request.get('/api/collections?amountMin=1%2C000');
    expect(strict.status()).toBe(400);
    expect((await strict.json()).message).toMatch(/amountMin/);
  });

  test('says amounts need a currency to compare like with like', async ({ page }) => {
    await openPage(page, '/collections');
    await expect(page.getByText('Amounts are compared across all currencies')).toBeVisible();
  });

  test('Clear filters goes back to the live list', async ({ page }) => {
    await openPage(page, '/collections?status=pending&sort=-amount&limit=25');
    await expect(page.getByText(/From the index, as of/)).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/collections' && url.search === '?limit=25');
    await expect(page.getByText(/From the index, as of/)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Clear filters' })).toBeDisabled();
  });

  test('corrects a hand-edited URL instead of failing', async ({ page }) => {
    await page.goto('/collections?status=pending&sort=bogus&amountMin=ten');
    await expect(page).toHaveURL((url) => url.search === '?page=1&limit=10&status=pending');
  });
});

test.describe('the index in the shell', () => {
  test('shows its state, and its details when opened', async ({ page, sandbox }) => {
    await openPage(page, '/collections');
    const indicator = page.getByRole('button', { name: /^Search index: / });
    await expect(indicator).toHaveAccessibleName('Search index: ready');
    await expect(indicator).toHaveAttribute('aria-expanded', 'false');
    await indicator.click();
    await expect(indicator).toHaveAttribute('aria-expanded', 'true');
    await expect(
      page.getByText(`${sandbox.demo.listedCollections} of ${sandbox.demo.listedCollections}`),
    ).toBeVisible();
    await expect(page.getByText('Last full scan')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(indicator).toHaveAttribute('aria-expanded', 'false');
    await expect(indicator).toBeFocused();
  });
});

test.describe('accessibility', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`search results and a filtered list have no serious violations, ${scheme}`, async ({ page, axe, sandbox }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const c = Object.values(sandbox.demo.contacts)[0]!;
      await openPage(page, `/search?${new URLSearchParams({ q: c.lastName })}`);
      await axe(page);
      await openPage(page, '/collections?status=pending&sort=-amount');
      await page.getByRole('button', { name: /^Status/ }).click();
      await axe(page);
    });
  }
});
