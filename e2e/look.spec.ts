import type { APIRequestContext, Page } from '@playwright/test';
import { E2E } from './env';
import { expect, expectHydrated, test } from './fixtures';

/**
 * How the pages look and feel to the people using them (issue 15): exact times
 * in the viewer's zone, statuses that mean something without colour, a phone
 * layout, display preferences this browser keeps, feedback while a page loads,
 * and every page axe-clean at desktop and phone width, light and dark.
 */
type Collection = {
  id: string;
  reference: string;
  status: string;
  amount: { value: number; currency: string };
  metadata: { amount: { value: number; currency: string }; quantity: number }[];
  createdAt: string;
  updatedAt: string;
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "30 Jun 2025, 14:05" in a zone, worked out here from the parts so the test does not reuse the app's code. */
function wallClock(iso: string, timeZone: string, seconds = false) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  const time = `${parts.hour}:${parts.minute}${seconds ? `:${parts.second}` : ''}`;
  return { date: `${Number(parts.day)} ${MONTHS[Number(parts.month) - 1]}`, year: parts.year!, time };
}

async function collection(request: APIRequestContext, id: string): Promise<Collection> {
  const res = await request.get(`/api/collections/${id}`);
  expect(res.status()).toBe(200);
  return (await res.json()).data as Collection;
}

async function firstPage(request: APIRequestContext, limit = 10): Promise<Collection[]> {
  const res = await request.get(`/api/collections?limit=${limit}`);
  expect(res.status()).toBe(200);
  return (await res.json()).data as Collection[];
}

const table = (page: Page) => page.getByRole('region', { name: 'Collections table' });
const rows = (page: Page) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
const displayMenu = (page: Page) => page.getByRole('banner').getByRole('button', { name: 'Display' });

async function openList(page: Page, path = '/collections') {
  await page.goto(path);
  await expect(rows(page).first()).toBeVisible();
  await expectHydrated(page.getByRole('button', { name: 'Next page' }));
}

test.describe('exact times in the viewer’s time zone', () => {
  // Lagos is UTC+1 all year: a time shown in UTC would be an hour off.
  test.use({ timezoneId: 'Africa/Lagos' });

  test('the list and a collection show absolute times in the browser’s zone, UTC on hover', async ({
    page,
    request,
  }) => {
    const data = await firstPage(request);
    await openList(page);
    const thisYear = wallClock(new Date().toISOString(), 'Africa/Lagos').year;
    for (const [i, c] of data.entries()) {
      const t = wallClock(c.createdAt, 'Africa/Lagos');
      const time = rows(page).nth(i).locator('time');
      await expect(time).toHaveText(`${t.date}${t.year === thisYear ? '' : ` ${t.year}`}, ${t.time}`);
      await expect(time).toHaveAttribute('title', `${c.createdAt.slice(0, 19).replace('T', ' ')} UTC`);
    }
    await expect(page.getByText(/times in GMT\+1 \(Africa\/Lagos\)/)).toBeVisible();

    const c = await collection(request, data[0]!.id);
    await page.goto(`/collections/${c.id}`);
    const created = page
      .getByRole('term')
      .filter({ hasText: /^Created$/ })
      .locator('xpath=following-sibling::dd[1]');
    const t = wallClock(c.createdAt, 'Africa/Lagos', true);
    await expect(created.locator('time')).toHaveText(`${t.date} ${t.year}, ${t.time} GMT+1`);
  });

  test('"Display" switches times to UTC and rows to compact, and this browser keeps both', async ({
    page,
    request,
  }) => {
    const [first] = await firstPage(request);
    await openList(page);
    const row = rows(page).first();
    const comfortable = (await row.boundingBox())!.height;

    await expectHydrated(displayMenu(page));
    await displayMenu(page).click();
    await expect(displayMenu(page)).toHaveAttribute('aria-expanded', 'true');
    await page.getByRole('radio', { name: 'Compact' }).check();
    await page.getByRole('radio', { name: 'UTC' }).check();
    await page.keyboard.press('Escape');
    await expect(displayMenu(page)).toBeFocused();

    const utc = wallClock(first!.createdAt, 'UTC');
    await expect(row.locator('time')).toContainText(utc.time);
    await expect.poll(async () => (await row.boundingBox())!.height).toBeLessThan(comfortable - 4);

    // A new page load is rendered that way by the server: no flash of the other density or zone.
    await page.reload();
    await expect(rows(page).first().locator('time')).toContainText(utc.time);
    await expect(page.locator('html')).toHaveAttribute('data-density', 'compact');
    await expect(page.getByText('times in UTC')).toBeVisible();
    await displayMenu(page).click();
    await expect(page.getByRole('radio', { name: 'Compact' })).toBeChecked();
    await expect(page.getByRole('radio', { name: /^Local/ })).not.toBeChecked();
  });
});

test.describe('statuses that mean something', () => {
  test('paid, waiting and ended statuses differ in icon and words, not only colour; unknown ones stay verbatim', async ({
    page,
    request,
  }) => {
    const data = await firstPage(request, 100);
    await openList(page, '/collections?limit=100');
    const meaningOf: Record<string, [string, string]> = {
      completed: ['Completed', 'paid'],
      pending: ['Pending', 'waiting'],
      cancelled: ['Cancelled', 'ended'],
      expired: ['Expired', 'ended'],
    };
    const seen = new Set<string>();
    for (const [i, c] of data.entries()) {
      const known = meaningOf[c.status];
      if (!known || seen.has(c.status)) continue;
      seen.add(c.status);
      const cell = rows(page).nth(i).getByRole('cell').nth(3);
      await expect(cell).toHaveText(known[0]);
      // The icon is drawn from the meaning's symbol: a check, a clock, a struck circle.
      await expect(cell.locator('svg use')).toHaveAttribute('href', `#i-${known[1]}`);
    }
    expect([...seen].sort()).toEqual(expect.arrayContaining(['completed', 'pending']));
    expect(seen.size).toBeGreaterThanOrEqual(3);

    // Greyscale, as a colour-blind reader or a black-and-white print sees them: still told apart.
    await page.addStyleTag({ content: 'html { filter: grayscale(1) }' });
    const badge = (text: string) => table(page).getByText(text, { exact: true }).first();
    const shots = await Promise.all([...seen].map((s) => badge(meaningOf[s]![0]).screenshot()));
    expect(new Set(shots.map((b) => b.toString('base64'))).size).toBe(shots.length);

    await page.goto('/collections/pay_fault_unknown');
    const heading = page.getByRole('main').getByRole('heading', { level: 1 });
    await expect(heading.getByText('partially_paid', { exact: true })).toBeVisible();
    await expect(heading.locator('svg')).toHaveCount(0);
  });
});

test.describe('phone width (390 × 844): a collection', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('reflows its fields and line items: no amount cut, nothing scrolls sideways', async ({
    page,
    request,
    sandbox,
  }) => {
    const c = await collection(request, sandbox.demo.examples.multipleLineItems!);
    await page.goto(`/collections/${c.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const items = page.getByRole('region', { name: 'Line items table' });
    const cells = await items
      .locator('td[data-col="total"], td[data-col="amount"]')
      .evaluateAll((tds) =>
        tds.map((td) => ({ right: td.getBoundingClientRect().right, fits: td.scrollWidth <= td.clientWidth })),
      );
    expect(cells.length).toBe(c.metadata.length * 2);
    for (const cell of cells) {
      expect(cell.right).toBeLessThanOrEqual(390);
      expect(cell.fits).toBe(true);
    }
    // The id has the card's width: on one line, not broken mid-string.
    const id = page.getByRole('term').filter({ hasText: /^ID$/ }).locator('xpath=following-sibling::dd[1]');
    await expect(id).toHaveText(c.id);
    const lines = await id.getByText(c.id, { exact: true }).evaluate((el) => el.getClientRects().length);
    expect(lines).toBe(1);
  });
});

test.describe('getting around', () => {
  test('a slow record shows progress at once while it loads', async ({ page }) => {
    await openList(page);
    const box = page.getByRole('combobox', { name: 'Search' });
    await expectHydrated(box);
    await box.fill('pay_fault_slow');
    await box.press('Enter');
    await expect(page.getByRole('progressbar', { name: 'Loading page' })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/collections');
  });

  test('the box opens an id with a capitalised prefix and the dashboard’s own /api link', async ({ page, sandbox }) => {
    const id = sandbox.demo.collections.integrated[0]!;
    await openList(page);
    const box = page.getByRole('combobox', { name: 'Search' });
    await expectHydrated(box);
    await box.fill(`PAY_${id.slice(4)}`);
    await box.press('Enter');
    await expect(page).toHaveURL((url) => url.pathname === `/collections/${id}`);
    await box.fill(`http://localhost:3000/api/providers/${sandbox.demo.providers[0]}`);
    await box.press('Enter');
    await expect(page).toHaveURL((url) => url.pathname === `/providers/${sandbox.demo.providers[0]}`);
    // The provider page has a way back.
    await page.getByRole('link', { name: 'Back to collections' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/collections');
  });

  test('"Skip to pagination" takes a keyboard user past the rows', async ({ page }) => {
    await openList(page, '/collections?limit=100');
    const skip = page.getByRole('link', { name: 'Skip to pagination' });
    await skip.focus();
    await expect(skip).toBeVisible();
    await page.keyboard.press('Enter');
    const next = page.getByRole('button', { name: 'Next page' });
    let presses = 0;
    while (!(await next.evaluate((el) => el === document.activeElement)) && presses < 6) {
      await page.keyboard.press('Tab');
      presses += 1;
    }
    await expect(next).toBeFocused();
    expect(presses).toBeLessThanOrEqual(3);
  });

  test('the list says how many there are and why other collections are not in it', async ({ page, sandbox }) => {
    await openList(page);
    await expect(page.getByText(`${sandbox.demo.listedCollections} collections`, { exact: true })).toBeVisible();
    await expect(page.getByText(/integrated collections only .*opens by its id/)).toBeVisible();
  });
});

test.describe('accessibility at both widths, light and dark', () => {
  const pages: [string, (s: { demo: { examples: Record<string, string | null>; providers: string[] } }) => string][] = [
    ['the list', () => '/collections'],
    ['a collection', (s) => `/collections/${s.demo.examples.multipleLineItems}`],
    ['a provider', (s) => `/providers/${s.demo.providers[0]}`],
    ['the overview', () => '/overview?range=30d'],
    ['lookup', () => '/lookup'],
    ['the audit log', () => '/audit'],
    ['the status page', () => '/status'],
  ];
  for (const [name, path] of pages) {
    test(`${name} has no serious or critical axe violations at 1280 and 390 px, light and dark`, async ({
      page,
      axe,
      sandbox,
    }) => {
      test.slow(); // four full axe runs
      for (const width of [1280, 390])
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
          await page.emulateMedia({ colorScheme });
          await page.goto(path(sandbox));
          await expect(page.getByRole('main')).toBeVisible();
          await axe(page);
        }
    });
  }
});

test.describe('the first screen on a phone, and one header row at desktop width (issue 36, item 2)', () => {
  const firstRowTop = async (page: Page) => {
    const row = page.getByRole('region', { name: 'Collections table' }).getByRole('row').nth(1);
    await expect(row).toBeVisible();
    return (await row.boundingBox())!.y;
  };

  test('at 390 × 844 the first collection starts in the upper half on the list, a search and a filtered view', async ({
    page,
    sandbox,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const [, contact] = Object.entries(sandbox.demo.contacts)[0]!;
    for (const path of [
      '/collections',
      `/search?${new URLSearchParams({ q: contact.lastName })}`,
      '/collections?status=pending',
    ]) {
      await page.goto(path);
      expect(await firstRowTop(page), path).toBeLessThan(844 / 2);
    }

    // The filters fold into one button that says how many apply; it opens them, and a change applies.
    const filters = page.getByRole('button', { name: 'Filters (1 applied)' });
    await expectHydrated(filters);
    await expect(page.getByRole('combobox', { name: 'Sort by' })).toBeHidden();
    await filters.click();
    await expect(filters).toHaveAttribute('aria-expanded', 'true');
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('-amount');
    await expect(page).toHaveURL(/status=pending&sort=-amount/);
    await expect(page.getByRole('button', { name: 'Filters (2 applied)' })).toBeVisible();

    // The navigation is one Menu beside the name, and takes the reader where they asked.
    const menu = page.getByText('Menu', { exact: true });
    await menu.click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    await expect(page).toHaveURL(/\/overview/);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  });

  test('at 1280 px the header is one row with a signed-in viewer, the role and Sign out', async ({ browser }) => {
    const page = await (
      await browser.newContext({ baseURL: E2E.oidcURL, viewport: { width: 1280, height: 800 } })
    ).newPage();
    await page.goto('/collections');
    await page.getByPlaceholder('Enter any login').fill('grace.longname-for-the-header@example.com');
    await page.getByPlaceholder('and password').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    const header = page.getByRole('banner');
    await expect(header.getByText('Viewer', { exact: true })).toBeVisible();
    const middle = async (name: string, locator = header.getByRole('link', { name })) => {
      const box = (await locator.boundingBox())!;
      return box.y + box.height / 2;
    };
    const brand = await middle('Collections Console');
    for (const [label, locator] of [
      ['Main navigation', header.getByRole('navigation', { name: 'Main' })],
      ['Search box', header.getByRole('combobox', { name: 'Search' })],
      ['Viewer badge', header.getByText('Viewer', { exact: true })],
      ['Sign out', header.getByRole('button', { name: 'Sign out' })],
    ] as const)
      expect(Math.abs((await middle(label, locator)) - brand), label).toBeLessThan(8);
    await page.context().close();
  });
});
