import type { APIRequestContext, Locator, Page, Request } from '@playwright/test';
import { FAULT_PAGES, type FaultKind } from '../sandbox/faults';
import { E2E } from './env';
import { expect, expectHydrated, test } from './fixtures';
import { labelOf } from './labels';

/**
 * The collections list page (contract section 5) and the app shell around it,
 * driven like a user: by role and accessible name, against the sandbox.
 * Expected values come from the sandbox's fixtures and the dashboard's own API,
 * never from hard-coded ids.
 */

type ListedCollection = {
  id: string;
  reference: string;
  contact: { firstName: string; lastName: string; email?: string; phone?: string };
  amount: { value: number; currency: string };
  status: string;
  payable: { methods: string[] };
  followUp: { enabled: boolean; channels: string[] };
  createdAt: string;
};
type ListEnvelope = { data: ListedCollection[]; meta: { count: number; next: number | null; prev: number | null } };

const nf = new Intl.NumberFormat('en');
/** The pagination summary, e.g. "11–20 of 253" (an en dash). */
const summary = (from: number, to: number, count: number) =>
  `${nf.format(from)}–${nf.format(to)} of ${nf.format(count)}`;
const utcTitle = (iso: string) => `${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** The dashboard's own API, for the rows a page should show. */
async function apiPage(request: APIRequestContext, page: number, limit = 10): Promise<ListEnvelope> {
  const res = await request.get(`/api/collections?page=${page}&limit=${limit}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as ListEnvelope;
}

function isListRequest(page: number, limit = 10) {
  return (req: Request) => {
    const url = new URL(req.url());
    return (
      url.pathname === '/api/collections' &&
      url.searchParams.get('page') === String(page) &&
      url.searchParams.get('limit') === String(limit)
    );
  };
}

function ui(page: Page) {
  const region = page.getByRole('region', { name: 'Collections table' });
  return {
    region,
    table: region.getByRole('table'),
    rows: region.getByRole('row').filter({ has: page.getByRole('cell') }),
    pagination: page.getByRole('navigation', { name: 'Pagination' }),
    first: page.getByRole('button', { name: 'First page' }),
    previous: page.getByRole('button', { name: 'Previous page' }),
    next: page.getByRole('button', { name: 'Next page' }),
    last: page.getByRole('button', { name: 'Last page' }),
    rowsPerPage: page.getByRole('combobox', { name: 'Rows per page' }),
    searchBox: page.getByRole('combobox', { name: 'Search' }),
    copyId: (id: string) => page.getByRole('button', { name: `Copy id ${id}`, exact: true }),
  };
}

/** Opens a list page and waits until it is interactive (rows shown, controls hydrated). */
async function openList(page: Page, path = '/collections') {
  await page.goto(path);
  const { rows, next, searchBox } = ui(page);
  await expect(rows.first()).toBeVisible();
  await expectHydrated(next);
  await expectHydrated(searchBox);
}

/** Opens the page of a list fault (sandbox/faults.ts). */
async function openFault(page: Page, kind: FaultKind) {
  await page.goto(`/collections?page=${FAULT_PAGES[kind]}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Collections' })).toBeVisible();
}

/** page/limit as the URL holds them; absent means the default (1, 10). */
async function expectListUrl(page: Page, expected: { page: number; limit: number }) {
  await expect
    .poll(() => {
      const url = new URL(page.url());
      return {
        path: url.pathname,
        page: Number(url.searchParams.get('page') ?? 1),
        limit: Number(url.searchParams.get('limit') ?? 10),
      };
    })
    .toEqual({ path: '/collections', ...expected });
}

/** The page shows exactly the rows the API returns for it, and the summary says so. */
async function expectShowsPage(page: Page, envelope: ListEnvelope, pageNo: number, limit: number) {
  const { rows, pagination, copyId } = ui(page);
  await expect(rows).toHaveCount(envelope.data.length);
  await expect(copyId(envelope.data[0]!.id)).toBeVisible();
  await expect(copyId(envelope.data.at(-1)!.id)).toBeAttached();
  const from = (pageNo - 1) * limit + 1;
  await expect(
    pagination.getByText(summary(from, from + envelope.data.length - 1, envelope.meta.count), { exact: true }),
  ).toBeVisible();
}

async function isFocused(locator: Locator) {
  return locator.evaluate((el) => el === document.activeElement);
}

async function bodyOverflowX(page: Page) {
  return page.evaluate(
    () =>
      Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - document.documentElement.clientWidth,
  );
}

test.describe('app shell', () => {
  test('shows the product name, the Search box and the Sandbox data badge on every page', async ({ page }) => {
    for (const path of [
      '/collections',
      '/collections?page=2&limit=25',
      '/collections?page=999',
      `/collections?page=${FAULT_PAGES['500']}`,
      '/no-such-page',
    ]) {
      const response = await page.goto(path);
      if (path === '/no-such-page') expect(response?.status()).toBe(404);
      const banner = page.getByRole('banner');
      await expect(banner.getByRole('link', { name: 'Collections Console' }), path).toBeVisible();
      await expect(banner.getByRole('combobox', { name: 'Search' }), path).toBeVisible();
      await expect(banner.getByText('Sandbox data', { exact: true }), path).toBeVisible();
    }
  });

  test('fits a 375 px phone', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await openList(page);
    const banner = page.getByRole('banner');
    expect(await banner.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    for (const element of [
      banner,
      banner.getByRole('link', { name: 'Collections Console' }),
      banner.getByRole('combobox', { name: 'Search' }),
      banner.getByText('Sandbox data', { exact: true }),
    ]) {
      await expect(element).toBeInViewport();
      const box = (await element.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
    // Pages without the table fit as a whole (the table page is covered under "phone width").
    for (const path of [
      `/collections?page=${FAULT_PAGES['500']}`,
      `/collections?page=${FAULT_PAGES.empty}`,
      '/collections?page=999',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('banner').getByRole('combobox', { name: 'Search' })).toBeInViewport();
      expect(await bodyOverflowX(page), path).toBeLessThanOrEqual(0);
    }
  });
});

test.describe('Search box: ids and links', () => {
  test('opens a collection id, trimmed of spaces and quotes', async ({ page, sandbox }) => {
    const id = sandbox.demo.collections.integrated[2]!;
    for (const typed of [id, `  "${id}"  `, `'${id}'`, `“${id}”`]) {
      await openList(page);
      await ui(page).searchBox.fill(typed);
      await ui(page).searchBox.press('Enter');
      await expect(page, typed).toHaveURL((url) => url.pathname === `/collections/${id}`);
    }
  });

  test('opens a provider id', async ({ page, sandbox }) => {
    const id = sandbox.demo.providers[1]!;
    await openList(page);
    await ui(page).searchBox.fill(` '${id}' `);
    await ui(page).searchBox.press('Enter');
    await expect(page).toHaveURL((url) => url.pathname === `/providers/${id}`);
  });

  test('opens a pasted dashboard URL', async ({ page, sandbox }) => {
    const collection = sandbox.demo.collections.integrated[3]!;
    const provider = sandbox.demo.providers[2]!;
    const pasted: [string, string][] = [
      [`  ${E2E.baseURL}/collections/${collection}  `, `/collections/${collection}`],
      [`"https://console.example.com/collections/${collection}?from=email#raw"`, `/collections/${collection}`],
      [`${E2E.baseURL}/providers/${provider}/`, `/providers/${provider}`],
      [`/providers/${provider}`, `/providers/${provider}`],
    ];
    for (const [typed, path] of pasted) {
      await openList(page);
      await ui(page).searchBox.fill(typed);
      await ui(page).searchBox.press('Enter');
      await expect(page, typed).toHaveURL((url) => url.pathname === path);
    }
  });

  test('keeps the user on the page with an inline message for a blank box or a foreign link', async ({ page }) => {
    await openList(page, '/collections?page=2');
    const box = ui(page).searchBox;
    const inputs: [string, RegExp][] = [
      ['   ', /Type an id, an e-mail, a phone number, a name or a reference/],
      ['https://example.com/somewhere/else', /does not point to a collection or provider/],
    ];
    for (const [typed, message] of inputs) {
      await box.fill(typed);
      await box.press('Enter');
      await expect(box, typed).toHaveAccessibleDescription(message);
      await expect(box).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText(message)).toBeVisible();
      await expectListUrl(page, { page: 2, limit: 10 });
    }
    // Typing again clears the message.
    await box.press('End');
    await box.press('x');
    await expect(box).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(/does not point to a collection or provider/)).toHaveCount(0);
  });

  test('sends any other text to the search results page', async ({ page }) => {
    await openList(page);
    const box = ui(page).searchBox;
    for (const typed of ['hello', 'pay_', 'pay_abc/def']) {
      await openList(page);
      await box.fill(typed);
      await box.press('Enter');
      await expect(page, typed).toHaveURL((url) => url.pathname === '/search' && url.searchParams.get('q') === typed);
      await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
    }
  });

  test('is focused by "/" from anywhere except while typing in a field', async ({ page }) => {
    await openList(page);
    const { searchBox, next, rowsPerPage } = ui(page);

    // From the page itself (nothing focused). The first press may beat the effect that listens for it.
    await page.getByRole('heading', { level: 1, name: 'Collections' }).click();
    await expect(async () => {
      await page.keyboard.press('/');
      await expect(searchBox).toBeFocused({ timeout: 500 });
    }).toPass();
    await expect(searchBox).toHaveValue('');

    // From a button.
    await next.focus();
    await page.keyboard.press('/');
    await expect(searchBox).toBeFocused();
    await expect(searchBox).toHaveValue('');

    // While typing in the box, "/" is just a character.
    await page.keyboard.type('/collections/pay_x');
    await expect(searchBox).toHaveValue('/collections/pay_x');
    await expect(searchBox).toBeFocused();

    // In another field, it is left to that field.
    await rowsPerPage.focus();
    await page.keyboard.press('/');
    await expect(rowsPerPage).toBeFocused();
    await expect(searchBox).toHaveValue('/collections/pay_x');
  });

  test('offers a few example ids in the sandbox strip at desktop width', async ({ page, sandbox }) => {
    await openList(page);
    const examples: [string, string][] = [
      [sandbox.demo.collections.integrated[0]!, '/collections/'],
      [sandbox.demo.collections.notIntegrated[0]!, '/collections/'],
      [sandbox.demo.providers[0]!, '/providers/'],
    ];
    const banner = page.getByRole('banner');
    for (const [id, prefix] of examples) {
      const link = banner.getByRole('link', { name: id, exact: true });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute('href', `${prefix}${id}`);
    }
    const [providerId] = examples[2]!;
    await banner.getByRole('link', { name: providerId, exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === `/providers/${providerId}`);
  });
});

test.describe('the collections list', () => {
  test('/ redirects to /collections', async ({ page, request }) => {
    const res = await request.get('/', { maxRedirects: 0 });
    expect([307, 308]).toContain(res.status());
    expect(res.headers().location).toBe('/collections');
    await page.goto('/');
    await expect(page).toHaveURL((url) => url.pathname === '/collections');
    await expect(page.getByRole('heading', { level: 1, name: 'Collections' })).toBeVisible();
  });

  test('is server-rendered with the first page of data in the HTML', async ({ request, sandbox }) => {
    const res = await request.get('/collections');
    expect(res.status()).toBe(200);
    const html = await res.text();
    const id = sandbox.demo.collections.integrated[0]!;
    expect(html).toContain(id);
    expect(html).toContain(`href="/collections/${id}"`);
    expect(html).toContain(summary(1, 10, sandbox.demo.listedCollections));
  });

  test('server-renders any page and limit from the URL, so the browser does not ask for it again', async ({
    page,
    request,
    sandbox,
  }) => {
    const third = await apiPage(request, 3, 25);
    const html = await (await request.get('/collections?page=3&limit=25')).text();
    expect(html).toContain(`href="/collections/${third.data[0]!.id}"`);
    expect(html).toContain(summary(51, 75, sandbox.demo.listedCollections));

    const asked: string[] = [];
    page.on('request', (req) => {
      if (isListRequest(3, 25)(req)) asked.push(req.url());
    });
    const prefetch = page.waitForRequest(isListRequest(4, 25));
    await page.goto('/collections?page=3&limit=25');
    await expectShowsPage(page, third, 3, 25);
    await prefetch; // the client is running and has already moved on to page 4
    expect(asked).toEqual([]);
  });

  test('loads and pages without errors in the browser console', async ({ page }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await openList(page);
    await ui(page).next.click();
    await expectListUrl(page, { page: 2, limit: 10 });
    await ui(page).rowsPerPage.selectOption('50');
    await expectListUrl(page, { page: 1, limit: 50 });
    await expect(ui(page).rows).toHaveCount(50);
    await page.goBack();
    await expectListUrl(page, { page: 2, limit: 10 });
    await expect(ui(page).rows).toHaveCount(10);
    expect(problems).toEqual([]);
  });

  test('shows reference, contact, amount, status, methods, follow-up, created and id for every row', async ({
    page,
    request,
  }) => {
    test.slow(); // many steps on a large table; a busy machine must not time it out
    const { data } = await apiPage(request, 1);
    await openList(page);
    const { table, rows } = ui(page);
    await expect(table.getByRole('columnheader')).toHaveText([
      'Reference',
      'Contact',
      'Amount',
      'Status',
      'Methods',
      'Follow-up',
      'Created',
      'ID',
    ]);
    await expect(rows).toHaveCount(data.length);

    for (const [i, c] of data.entries()) {
      const cells = rows.nth(i).getByRole('cell');
      await expect(cells).toHaveCount(8);
      const [reference, contact, amount, status, methods, followUp, created, id] = Array.from({ length: 8 }, (_, n) =>
        cells.nth(n),
      );

      await expect(reference!.getByRole('link')).toHaveText(c.reference);
      await expect(contact!.getByText(`${c.contact.firstName} ${c.contact.lastName}`, { exact: true })).toBeVisible();
      await expect(contact!.getByText((c.contact.email || c.contact.phone)!, { exact: true })).toBeVisible();
      // Currency code, a space and digit grouping: "GHS 136,180".
      await expect(amount!).toHaveText(`${c.amount.currency} ${nf.format(c.amount.value)}`);
      await expect(amount!).toHaveText(/^[A-Z]{3} \d{1,3}(,\d{3})*$/);
      await expect(status!.getByText(labelOf(c.status), { exact: true })).toBeVisible();
      for (const method of c.payable.methods)
        await expect(methods!.getByText(labelOf(method), { exact: true })).toBeVisible();
      await expect(followUp!.getByText(c.followUp.enabled ? 'On' : 'Off', { exact: true })).toBeVisible();
      for (const channel of c.followUp.enabled ? c.followUp.channels : [])
        await expect(followUp!.getByText(labelOf(channel), { exact: true })).toBeVisible();
      const time = created!.locator('time');
      await expect(time).toHaveAttribute('datetime', c.createdAt);
      await expect(time).toHaveAttribute('title', utcTitle(c.createdAt));
      // Absolute, to the minute, the year left out only for this year's dates: "20 Nov, 16:45".
      await expect(time).toHaveText(
        /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)( \d{4})?, \d{2}:\d{2}$/,
      );
      const idText = id!.getByText(c.id, { exact: true });
      await expect(idText).toBeVisible();
      await expect(idText).toHaveCSS('font-family', /monospace/);
      await expect(id!.getByRole('button', { name: `Copy id ${c.id}`, exact: true })).toBeVisible();
    }

    // The labels the issue names appear somewhere on the page.
    await expect(table.getByText('Payment link', { exact: true }).first()).toBeVisible();
    await expect(table.getByText('Virtual account', { exact: true }).first()).toBeVisible();
  });

  test('links every row to its collection with a real link, reachable by keyboard', async ({ page, request }) => {
    const { data } = await apiPage(request, 1);
    await openList(page);
    const { rows } = ui(page);
    for (const [i, c] of data.entries()) {
      await expect(rows.nth(i).getByRole('link', { name: c.reference, exact: true })).toHaveAttribute(
        'href',
        `/collections/${c.id}`,
      );
    }

    const link = rows.first().getByRole('link', { name: data[0]!.reference, exact: true });
    await page.getByRole('heading', { level: 1, name: 'Collections' }).click();
    // Past the shell and the filters (a date input is three stops: day, month, year).
    for (let presses = 0; presses < 50 && !(await isFocused(link)); presses++) await page.keyboard.press('Tab');
    await expect(link).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL((url) => url.pathname === `/collections/${data[0]!.id}`);
  });

  test('opens a collection from its link or anywhere on its row without reloading, and in a new tab on a modified click', async ({
    page,
    request,
    context,
  }) => {
    const { data } = await apiPage(request, 1);
    await openList(page);
    const { rows } = ui(page);
    // A marker on the window survives only client-side navigation.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    const stayed = () => page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed === true);

    await rows.first().getByRole('link', { name: data[0]!.reference, exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === `/collections/${data[0]!.id}`);
    await expect(page.getByRole('heading', { name: 'Line items' })).toBeVisible();
    expect(await stayed()).toBe(true);

    await page.goBack();
    await expect(rows.nth(1)).toBeVisible();
    await rows.nth(1).getByRole('cell').nth(2).click(); // the amount: not a link or a button
    await expect(page).toHaveURL((url) => url.pathname === `/collections/${data[1]!.id}`);
    expect(await stayed()).toBe(true);

    await page.goBack();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    // The list settled (its refetch on return done, nothing left to move the rows) before a click by position.
    const third = rows.nth(2).getByRole('link', { name: data[2]!.reference, exact: true });
    await expect(third).toHaveAttribute('href', `/collections/${data[2]!.id}`);
    await expect(ui(page).table).not.toHaveAttribute('aria-busy', 'true');
    await expectHydrated(ui(page).next);
    await third.hover();
    const popup = context.waitForEvent('page');
    await third.click({ modifiers: ['ControlOrMeta'] });
    await expect(await popup).toHaveURL((url) => url.pathname === `/collections/${data[2]!.id}`);
    expect(new URL(page.url()).pathname).toBe('/collections');

    await rows
      .nth(3)
      .getByRole('button', { name: `Copy id ${data[3]!.id}` })
      .click();
    expect(new URL(page.url()).pathname).toBe('/collections');
  });

  test.describe('copy button', () => {
    test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

    test('copies the id of its row', async ({ page, sandbox }) => {
      const id = sandbox.demo.collections.integrated[1]!;
      await openList(page);
      const button = ui(page).copyId(id);
      await expectHydrated(button);
      await button.click();
      await expect(button.getByRole('status')).toHaveText('Copied');
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(id);
    });
  });
});

test.describe('pagination', () => {
  test('moves with First, Previous, Next and Last page, disabled at the ends', async ({ page, request, sandbox }) => {
    const count = sandbox.demo.listedCollections;
    const lastPage = Math.ceil(count / 10);
    const { first, previous, next, last } = ui(page);
    await openList(page);
    await expectShowsPage(page, await apiPage(request, 1), 1, 10);
    await expect(first).toBeDisabled();
    await expect(previous).toBeDisabled();
    await expect(next).toBeEnabled();
    await expect(last).toBeEnabled();

    await next.click();
    await expectListUrl(page, { page: 2, limit: 10 });
    await expectShowsPage(page, await apiPage(request, 2), 2, 10);
    await expect(first).toBeEnabled();
    await expect(previous).toBeEnabled();

    await last.click();
    await expectListUrl(page, { page: lastPage, limit: 10 });
    await expectShowsPage(page, await apiPage(request, lastPage), lastPage, 10);
    await expect(
      ui(page).pagination.getByText(summary((lastPage - 1) * 10 + 1, count, count), { exact: true }),
    ).toBeVisible();
    await expect(next).toBeDisabled();
    await expect(last).toBeDisabled();
    await expect(first).toBeEnabled();
    await expect(previous).toBeEnabled();

    await previous.click();
    await expectListUrl(page, { page: lastPage - 1, limit: 10 });
    await expectShowsPage(page, await apiPage(request, lastPage - 1), lastPage - 1, 10);
    await expect(next).toBeEnabled();

    await first.click();
    await expectListUrl(page, { page: 1, limit: 10 });
    await expectShowsPage(page, await apiPage(request, 1), 1, 10);
    await expect(first).toBeDisabled();
    await expect(previous).toBeDisabled();
  });

  test('offers 10, 25, 50 and 100 rows per page, kept in the URL', async ({ page, request }) => {
    test.slow(); // many steps on a large table; a busy machine must not time it out
    await openList(page);
    const { rowsPerPage } = ui(page);
    await expect(rowsPerPage).toHaveValue('10');
    await expect(rowsPerPage.getByRole('option')).toHaveText(['10', '25', '50', '100']);
    for (const limit of [25, 50, 100, 10]) {
      await rowsPerPage.selectOption(String(limit));
      await expectListUrl(page, { page: 1, limit });
      await expectShowsPage(page, await apiPage(request, 1, limit), 1, limit);
    }
    // A reload keeps it.
    await rowsPerPage.selectOption('25');
    await expectListUrl(page, { page: 1, limit: 25 });
    await page.reload();
    await expect(rowsPerPage).toHaveValue('25');
    await expectShowsPage(page, await apiPage(request, 1, 25), 1, 25);
  });

  test('keeps page and limit in the URL, and back and forward restore them', async ({ page, request }) => {
    test.slow(); // many steps on a large table; a busy machine must not time it out
    const { next, rowsPerPage } = ui(page);
    await openList(page);

    await next.click();
    await expectListUrl(page, { page: 2, limit: 10 });
    await expectShowsPage(page, await apiPage(request, 2), 2, 10);

    await rowsPerPage.selectOption('25');
    await expectListUrl(page, { page: 1, limit: 25 });
    await next.click();
    await expectListUrl(page, { page: 2, limit: 25 });
    await expectShowsPage(page, await apiPage(request, 2, 25), 2, 25);

    const history: [number, number][] = [
      [1, 25],
      [2, 10],
      [1, 10],
    ];
    for (const [p, limit] of history) {
      await page.goBack();
      await expectListUrl(page, { page: p, limit });
      await expect(rowsPerPage).toHaveValue(String(limit));
      await expectShowsPage(page, await apiPage(request, p, limit), p, limit);
    }
    for (const [p, limit] of [
      [2, 10],
      [1, 25],
      [2, 25],
    ] as const) {
      await page.goForward();
      await expectListUrl(page, { page: p, limit });
      await expect(rowsPerPage).toHaveValue(String(limit));
      await expectShowsPage(page, await apiPage(request, p, limit), p, limit);
    }

    // A page and limit typed into the address bar open directly.
    await openList(page, '/collections?page=3&limit=50');
    await expect(rowsPerPage).toHaveValue('50');
    await expectShowsPage(page, await apiPage(request, 3, 50), 3, 50);
  });

  test('corrects an invalid page and limit in the URL instead of failing', async ({ page, request }) => {
    const res = await request.get('/collections?page=abc&limit=9999', { maxRedirects: 0 });
    expect([307, 308]).toContain(res.status());
    expect(res.headers().location).toBe('/collections?page=1&limit=100');

    await page.goto('/collections?page=abc&limit=9999');
    await expect(page).toHaveURL((url) => url.pathname === '/collections' && url.search === '?page=1&limit=100');
    await expect(ui(page).rowsPerPage).toHaveValue('100');
    await expectShowsPage(page, await apiPage(request, 1, 100), 1, 100);
    await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveCount(0);
  });

  for (const limit of [10, 25]) {
    test(`offers a way back from a page past the end (limit ${limit})`, async ({ page, request, sandbox }) => {
      const lastPage = Math.ceil(sandbox.demo.listedCollections / limit);
      await page.goto(`/collections?page=999&limit=${limit}`);
      await expect(page.getByText('Page 999 is past the end', { exact: true })).toBeVisible();
      await expect(ui(page).region).toHaveCount(0);
      // Past the end, "Last page" leads back too; only "Next page" is spent.
      await expect(ui(page).last).toBeEnabled();
      await expect(ui(page).next).toBeDisabled();
      const back = page.getByRole('link', { name: 'Go to the last page' });
      await expectHydrated(back);
      await back.click();
      await expectListUrl(page, { page: lastPage, limit });
      await expectShowsPage(page, await apiPage(request, lastPage, limit), lastPage, limit);
      await expect(ui(page).next).toBeDisabled();
    });
  }

  test('prefetches the next page, so Next page needs no new request', async ({ page, request }) => {
    const seen: { page: string | null; limit: string | null }[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/api/collections')
        seen.push({ page: url.searchParams.get('page'), limit: url.searchParams.get('limit') });
    });
    const pageTwo = await apiPage(request, 2);

    await page.goto('/collections');
    await expect(ui(page).rows.first()).toBeVisible();
    // Before any click, the browser has asked for page 2.
    await expect.poll(() => seen).toContainEqual({ page: '2', limit: '10' });
    // And it did not need page 1: that came with the HTML.
    expect(seen).not.toContainEqual({ page: '1', limit: '10' });

    await expectHydrated(ui(page).next);
    const before = seen.length;
    const nextPrefetch = page.waitForRequest(isListRequest(3));
    await ui(page).next.click();
    await expectListUrl(page, { page: 2, limit: 10 });
    await expectShowsPage(page, pageTwo, 2, 10);
    // Page 3 is prefetched in turn; by then any request for page 2 would have been made too.
    await nextPrefetch;
    expect(seen.slice(before)).not.toContainEqual({ page: '2', limit: '10' });
  });

  test('keeps the previous rows and marks the table busy while a page loads', async ({ page, request }) => {
    const [pageTwo, pageThree] = [await apiPage(request, 2), await apiPage(request, 3)];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    await page.route(
      (url) => url.pathname === '/api/collections' && url.searchParams.get('page') === '3',
      async (route) => {
        asked = true;
        await held;
        await route.continue();
      },
    );

    await openList(page, '/collections?page=2');
    const { table, next, copyId } = ui(page);
    await expectShowsPage(page, pageTwo, 2, 10);
    await expect(table).toHaveAttribute('aria-busy', 'false');

    await next.click();
    await expectListUrl(page, { page: 3, limit: 10 });
    await expect(table).toHaveAttribute('aria-busy', 'true');
    // The previous rows stay on screen while page 3 loads.
    await expect(copyId(pageTwo.data[0]!.id)).toBeVisible();
    await expect(copyId(pageThree.data[0]!.id)).toHaveCount(0);
    await expect.poll(() => asked).toBe(true);

    release();
    await expect(table).toHaveAttribute('aria-busy', 'false');
    await expectShowsPage(page, pageThree, 3, 10);
    await expect(copyId(pageTwo.data[0]!.id)).toHaveCount(0);
  });
});

test.describe('error and empty states', () => {
  test('says the API key was rejected when upstream answers 401', async ({ page }) => {
    await openFault(page, '401');
    const alert = page.getByRole('alert').filter({ hasText: /API key/ });
    await expect(alert).toContainText(/API key was rejected/i);
    await expect(alert).toContainText('API_KEY');
    await expect(ui(page).region).toHaveCount(0);
  });

  test('says how long to wait when rate limited', async ({ page }) => {
    await openFault(page, '429');
    // Retry-After is 7; the message counts down, so a second or two may have passed.
    await expect(page.getByRole('alert').filter({ hasText: /rate limited/i })).toContainText(
      /rate limited, retry in [5-7] s/,
    );
  });

  for (const kind of ['500', '503', 'reset'] as const) {
    test(`says the upstream API is down (${kind}) and retries on request`, async ({ page }) => {
      await openFault(page, kind);
      const alert = page
        .getByRole('alert')
        .filter({ has: page.getByRole('heading', { name: 'The upstream API is down' }) });
      await expect(alert).toBeVisible();
      const retry = alert.getByRole('button', { name: 'Retry' });
      await expectHydrated(retry);
      const again = page.waitForRequest(isListRequest(FAULT_PAGES[kind]));
      await retry.click();
      await again;
      // Still down: the error state stays, with its Retry button.
      await expect(
        page
          .getByRole('alert')
          .filter({ has: page.getByRole('heading', { name: 'The upstream API is down' }) })
          .getByRole('button', { name: 'Retry' }),
      ).toBeEnabled();
    });
  }

  test('says the upstream API is slow when it times out, and retries on request', async ({ page }) => {
    test.slow(); // two upstream timeouts of ~2 s each, on a busy machine
    await openFault(page, 'slow');
    const alert = page
      .getByRole('alert')
      .filter({ has: page.getByRole('heading', { name: 'The upstream API is slow' }) });
    await expect(alert).toBeVisible();
    const retry = alert.getByRole('button', { name: 'Retry' });
    await expectHydrated(retry);
    const again = page.waitForRequest(isListRequest(FAULT_PAGES.slow));
    await retry.click();
    await again;
    await expect(
      page
        .getByRole('alert')
        .filter({ has: page.getByRole('heading', { name: 'The upstream API is slow' }) })
        .getByRole('button', { name: 'Retry' }),
    ).toBeEnabled({ timeout: 15_000 });
  });

  test('shows the error state when a page fails in the browser, and Retry loads it', async ({ page, request }) => {
    const pageThree = await apiPage(request, 3);
    let failing = true;
    const attempts: string[] = [];
    await page.route(
      (url) => url.pathname === '/api/collections' && url.searchParams.get('page') === '3',
      async (route) => {
        attempts.push(route.request().url());
        if (!failing) return route.continue();
        return route.fulfill({
          status: 502,
          contentType: 'application/json',
          body: JSON.stringify({
            status: 'error',
            message: 'The upstream API failed to answer',
            code: 'upstream_error',
          }),
        });
      },
    );
    await openList(page, '/collections?page=2');
    await ui(page).next.click();
    await expectListUrl(page, { page: 3, limit: 10 });
    const alert = page
      .getByRole('alert')
      .filter({ has: page.getByRole('heading', { name: 'The upstream API is down' }) });
    await expect(alert).toBeVisible();
    const retry = alert.getByRole('button', { name: 'Retry' });
    await expectHydrated(retry);

    failing = false;
    const before = attempts.length;
    const again = page.waitForRequest(isListRequest(3));
    await retry.click();
    await again;
    expect(attempts.length).toBeGreaterThan(before);
    await expectShowsPage(page, pageThree, 3, 10);
    await expect(alert).toHaveCount(0);
  });

  for (const kind of ['malformed', 'badshape', '400'] as const) {
    test(`never shows a blank page (${kind})`, async ({ page }) => {
      await openFault(page, kind);
      const alert = page.getByRole('alert').filter({ has: page.getByRole('heading', { level: 2 }) });
      await expect(alert).toBeVisible();
      await expect(alert.getByRole('heading', { level: 2 })).toHaveText(/\w/);
      await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
    });
  }

  test('says "No collections yet" for an account without collections', async ({ page }) => {
    await openFault(page, 'empty');
    await expect(page.getByText('No collections yet', { exact: true })).toBeVisible();
    await expect(ui(page).region).toHaveCount(0);
    await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveCount(0);
  });

  test('shows unknown values verbatim instead of hiding the record', async ({ page }) => {
    await openFault(page, 'unknown');
    const row = ui(page).rows.filter({ hasText: 'FAULT-UNKNOWN-1' });
    await expect(row).toHaveCount(1);
    await expect(row.getByText('partially_paid', { exact: true })).toBeVisible();
    await expect(row.getByText('crypto_wallet', { exact: true })).toBeVisible();
    await expect(row.getByText('carrier_pigeon', { exact: true })).toBeVisible();
    await expect(row.getByText('Payment link', { exact: true })).toBeVisible();
  });
});

test.describe('accessibility', () => {
  test('has no serious or critical axe violations in light mode', async ({ page, axe }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await openList(page);
    await axe(page);
  });

  test('has no serious or critical axe violations in dark mode', async ({ page, axe }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await openList(page);
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
    await axe(page);
  });

  test('has no serious or critical axe violations at 375 px', async ({ page, axe }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await openList(page);
    await axe(page);
  });

  const states: [string, string, (page: Page) => Locator][] = [
    [
      'an error',
      `/collections?page=${FAULT_PAGES['500']}`,
      (page) => page.getByRole('heading', { name: 'The upstream API is down' }),
    ],
    ['the empty', `/collections?page=${FAULT_PAGES.empty}`, (page) => page.getByText('No collections yet')],
    ['the past-the-end', '/collections?page=999', (page) => page.getByText('Page 999 is past the end')],
  ];
  for (const [name, path, shown] of states) {
    test(`has no serious or critical axe violations in ${name} state, light and dark`, async ({ page, axe }) => {
      test.slow(); // two full axe runs; a busy machine must not time them out
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.goto(path);
        await expect(shown(page)).toBeVisible();
        await axe(page);
      }
    });
  }
});

test.describe('phone width (390 × 844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('shows every row as a card with its amount and status in view, no sideways scrolling', async ({
    page,
    request,
  }) => {
    for (const limit of [10, 100]) {
      const { data } = await apiPage(request, 1, limit);
      await openList(page, `/collections?limit=${limit}`);
      const { region, rows, next } = ui(page);
      await expect(rows).toHaveCount(data.length);
      // Still a table for assistive technology: a row per collection, its cells named by the column headers.
      await expect(region.getByRole('columnheader')).toHaveCount(8);
      const metrics = await region.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
      expect(metrics.scrollWidth, 'the table scrolls sideways').toBeLessThanOrEqual(metrics.clientWidth);
      expect(await bodyOverflowX(page), 'horizontal overflow of the page').toBeLessThanOrEqual(0);

      // Every row's reference, amount and status lie inside the screen's width, with the right text.
      const boxes = await rows.evaluateAll((trs) =>
        trs.map((tr) => {
          const cell = (n: number) => {
            const td = tr.querySelectorAll('td')[n]!;
            const r = td.getBoundingClientRect();
            return { left: r.left, right: r.right, width: r.width, text: td.textContent ?? '' };
          };
          return { reference: cell(0), amount: cell(2), status: cell(3) };
        }),
      );
      for (const [i, c] of data.entries()) {
        const box = boxes[i]!;
        for (const [name, cell] of Object.entries(box)) {
          expect(cell.width, `${c.id} ${name} has a size`).toBeGreaterThan(0);
          expect(cell.left, `${c.id} ${name}`).toBeGreaterThanOrEqual(0);
          expect(cell.right, `${c.id} ${name}`).toBeLessThanOrEqual(390);
        }
        expect(box.amount.text).toBe(`${c.amount.currency} ${nf.format(c.amount.value)}`);
        expect(box.status.text).toBe(labelOf(c.status));
      }
      // The first card as a user sees it.
      await expect(
        rows.first().getByText(`${data[0]!.amount.currency} ${nf.format(data[0]!.amount.value)}`),
      ).toBeInViewport();

      await next.scrollIntoViewIfNeeded();
      await expect(next).toBeInViewport();
    }
    await ui(page).next.click();
    await expectListUrl(page, { page: 2, limit: 100 });
    const second = await apiPage(request, 2, 100);
    await expect(ui(page).rows).toHaveCount(second.data.length);
    await expect(ui(page).rows.first().getByRole('link')).toHaveText(second.data[0]!.reference);
    await page.evaluate(() => window.scrollTo(300, window.scrollY));
    expect(await page.evaluate(() => window.scrollX), 'the page pans sideways').toBe(0);
  });
});
