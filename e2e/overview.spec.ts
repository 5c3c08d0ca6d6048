import type { APIRequestContext } from '@playwright/test';
import type { Overview } from '../lib/api/overview';
import type { Collection } from '../lib/api/schemas';
import { firstLoadJs } from '../scripts/first-load-js';
import { E2E } from './env';
import { expect, indexReady, test } from './fixtures';

/**
 * `/overview` (contract section 8) against the e2e sandbox: its figures are
 * checked against sums computed here from the sandbox's own records, read
 * straight from the sandbox with the demo key, for the same range.
 */
const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function sandboxRecords(request: APIRequestContext, key: string): Promise<Collection[]> {
  const all: Collection[] = [];
  for (let page: number | null = 1; page;) {
    const res = await request.get(`${E2E.sandboxURL}/public/collections?page=${page}&limit=100`, {
      headers: { 'X-API-Key': key },
    });
    const body = (await res.json()) as { data: Collection[]; meta: { next: number | null } };
    all.push(...body.data);
    page = body.meta.next;
  }
  return all;
}

/** What the overview must say for a range of `days` ending today (UTC), computed from the records. */
function expected(records: Collection[], days: number) {
  const today = Date.parse(`${day(Date.now())}T00:00:00Z`);
  const from = day(today - (days - 1) * DAY);
  const to = day(today);
  const prevFrom = day(today - (2 * days - 1) * DAY);
  const prevTo = day(today - days * DAY);
  const within = (iso: string | null, a: string, b: string) =>
    iso !== null && day(Date.parse(iso)) >= a && day(Date.parse(iso)) <= b;
  const currencies = new Map<string, Collection[]>();
  for (const c of records) currencies.set(c.amount.currency, [...(currencies.get(c.amount.currency) ?? []), c]);
  const sum = (list: Collection[]) => ({ count: list.length, amount: list.reduce((n, c) => n + c.amount.value, 0) });
  return {
    range: { from, to },
    currencies: new Map(
      [...currencies].map(([currency, list]) => {
        const byStatus = new Map<string, Collection[]>();
        for (const c of list) byStatus.set(c.status, [...(byStatus.get(c.status) ?? []), c]);
        const created = list.filter((c) => within(c.createdAt, from, to));
        const completed = list.filter((c) => within(c.completedAt, from, to));
        const durations = completed
          .map((c) => Date.parse(c.completedAt!) - Date.parse(c.createdAt))
          .sort((a, b) => a - b);
        return [
          currency,
          {
            byStatus: Object.fromEntries([...byStatus].map(([s, l]) => [s, sum(l)])),
            completed: sum(completed),
            completedPrevious: sum(list.filter((c) => within(c.completedAt, prevFrom, prevTo))),
            created: created.length,
            completionRate: created.length ? created.filter((c) => c.completedAt).length / created.length : null,
            median: durations.length ? durations[Math.ceil(durations.length / 2) - 1]! : null,
          },
        ];
      }),
    ),
  };
}

test.describe('/overview', () => {
  test.beforeEach(async ({ request }) => indexReady(request));

  test('answers per currency with the sandbox’s own sums, for the chosen range', async ({ request, sandbox }) => {
    const records = await sandboxRecords(request, sandbox.demo.key);
    for (const [range, days] of [
      ['7d', 7],
      ['30d', 30],
      ['90d', 90],
    ] as const) {
      const res = await request.get(`/api/overview?range=${range}`);
      expect(res.headers()['cache-control']).toBe('private, no-store');
      const { data } = (await res.json()) as { data: Overview };
      const want = expected(records, days);
      expect(data.range).toEqual(want.range);
      expect(data.coverage).toBe(1);
      expect(data.currencies.map((c) => c.currency).sort()).toEqual([...want.currencies.keys()].sort());
      for (const c of data.currencies) {
        const w = want.currencies.get(c.currency)!;
        expect(Object.fromEntries(c.byStatus.map((s) => [s.status, { count: s.count, amount: s.amount }]))).toEqual(
          w.byStatus,
        );
        expect(c.completed).toEqual(w.completed);
        expect(c.completedPrevious).toEqual(w.completedPrevious);
        expect(c.created).toBe(w.created);
        expect(c.completionRate).toBe(w.completionRate);
        if (w.median === null) expect(c.medianTimeToCompleteMs).toBeNull();
        else expect(Math.abs(c.medianTimeToCompleteMs! - w.median) / w.median).toBeLessThan(0.01);
        // Created per day adds up to created in the range; completed amounts per day to the completed sum.
        const mine = data.perDay.filter((d) => d.currency === c.currency);
        expect(mine.reduce((n, d) => n + d.created, 0)).toBe(w.created);
        expect(mine.reduce((n, d) => n + d.completedAmount, 0)).toBe(w.completed.amount);
      }
    }
  });

  test('names a bad range in a 400, and the page corrects it', async ({ request, page }) => {
    const res = await request.get('/api/overview?range=1y');
    expect(res.status()).toBe(400);
    expect((await res.json()).message).toContain('range');
    await page.goto('/overview?range=1y');
    await expect(page).toHaveURL(/\/overview\?range=30d$/);
  });

  test('is in the navigation, shows the freshness line, and switches range by URL', async ({ page, request }) => {
    const { data } = (await (await request.get('/api/overview?range=7d')).json()) as { data: Overview };
    await page.goto('/collections');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(page.getByText(/as of .* of \d+ indexed/)).toBeVisible();
    const range = page.getByRole('navigation', { name: 'Range' });
    await expect(range.getByRole('link', { name: '30 days' })).toHaveAttribute('aria-current', 'page');
    await range.getByRole('link', { name: '7 days' }).click();
    await expect(page).toHaveURL(/range=7d/);
    await expect(range.getByRole('link', { name: '7 days' })).toHaveAttribute('aria-current', 'page');
    // A currency's charts are a row away; the range stays.
    const top = data.currencies[0]!.currency;
    await page
      .getByRole('table', { name: 'Currencies, last 7 days' })
      .getByRole('link', { name: `${top}: cards and charts` })
      .click();
    await expect(page).toHaveURL(
      (url) => url.searchParams.get('range') === '7d' && url.searchParams.get('currency') === top,
    );
    await expect(page.getByRole('heading', { name: /collections created per day/ }).first()).toBeVisible();
  });

  test('links every status figure to the list it counts', async ({ page, request }) => {
    const { data } = (await (await request.get('/api/overview')).json()) as { data: Overview };
    const top = data.currencies[0]!;
    const pending = top.byStatus.find((s) => s.status === 'pending')!;
    await page.goto(`/overview?currency=${top.currency}`);
    const section = page.getByRole('region', { name: top.currency, exact: true });
    const table = section.getByRole('table', { name: `${top.currency} collections by status, all time` });
    await table
      .getByRole('row', { name: /^pending/ })
      .getByRole('link')
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`/collections\\?status=pending&currency=${top.currency}$`));
    const list = await (await request.get(`/api/collections?status=pending&currency=${top.currency}`)).json();
    expect(list.meta.count).toBe(pending.count);
    await expect(page.getByRole('button', { name: /^Status\W+Pending/ })).toBeVisible();
  });

  test('links "completed" to exactly the collections it counts, by completion date', async ({ page, request }) => {
    for (const range of ['90d', 'all'] as const) {
      const { data } = (await (await request.get(`/api/overview?range=${range}`)).json()) as { data: Overview };
      const top = data.currencies.find((c) => c.completed.count > 0)!;
      await page.goto(`/overview?range=${range}&currency=${top.currency}`);
      const section = page.getByRole('region', { name: top.currency, exact: true });
      const term = range === 'all' ? 'Completed all time' : 'Completed last 90 days';
      const figure = section.getByRole('term').filter({ hasText: term }).locator('xpath=..');
      await figure.getByRole('link').click();
      await expect(page).toHaveURL(/\/collections\?.*completedFrom=/);
      const search = new URL(page.url()).search;
      expect(new URLSearchParams(search).get('currency')).toBe(top.currency);
      if (range !== 'all') expect(new URLSearchParams(search).get('completedTo')).toBe(data.range.to);
      const list = await (await request.get(`/api/collections${search}`)).json();
      expect(list.meta.count).toBe(top.completed.count);
      await expect(page.getByRole('textbox', { name: 'Completed from' })).toHaveValue(data.range.from ?? /.+/);
    }
  });

  test('draws its charts on the server: there without JavaScript, with a text summary and a table', async ({
    browser,
    baseURL,
    request,
  }) => {
    const { data } = (await (await request.get('/api/overview?range=30d')).json()) as { data: Overview };
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseURL}/overview?range=30d&currency=${data.currencies[0]!.currency}`);
    const chart = page.getByRole('figure', { name: /collections created per day/ }).first();
    await expect(chart.getByRole('img', { name: /created in the last 30 days/ })).toBeVisible();
    await expect(chart.locator('svg path').first()).toHaveAttribute('d', /^M/);
    await chart.getByText('Show as table').click();
    await expect(chart.getByRole('table')).toBeVisible();
    await context.close();
  });

  test('draws all time where the data is, from its first to its last day, in buckets chosen from that span', async ({
    page,
    request,
  }) => {
    type Answer = {
      data: {
        range: { from: string; to: string };
        chart: { from: string; to: string };
        latestActivity: string;
        bucket: 'day' | 'month' | 'year';
        currencies: { currency: string }[];
      };
    };
    const { data } = (await (await request.get('/api/overview?range=all')).json()) as Answer;
    // The chart ends at the last activity, not today, and starts at the first.
    expect(data.chart).toEqual({ from: data.range.from, to: data.latestActivity });
    const days = (Date.parse(data.chart.to) - Date.parse(data.chart.from)) / 86_400_000 + 1;
    // The sandbox's weeks of data (and whatever the tests added since) by day, not one spike in a month.
    expect(data.bucket).toBe(days <= 92 ? 'day' : 'month');
    await page.goto(`/overview?range=all&currency=${data.currencies[0]!.currency}`);
    const chart = page.getByRole('figure', { name: new RegExp(`collections created per ${data.bucket}`) }).first();
    await chart.getByText('Show as table').click();
    // One row a bucket, from the first day to the last (a day bucket: every day of the span).
    if (data.bucket === 'day') await expect(chart.getByRole('table').locator('tbody tr')).toHaveCount(days);
  });

  test('answers at a glance: a row per currency with the API’s figures, each leading to its cards and charts', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const { data } = (await (await request.get('/api/overview?range=all')).json()) as { data: Overview };
    await page.goto('/overview?range=all');
    const table = page.getByRole('table', { name: 'Currencies, all time' });
    await expect(table.getByRole('row')).toHaveCount(data.currencies.length + 1);
    expect(data.currencies.length).toBeGreaterThanOrEqual(7);
    for (const [i, c] of data.currencies.entries()) {
      const row = table.getByRole('row').nth(i + 1);
      await expect(row.getByRole('rowheader')).toHaveText(new RegExp(`^${c.currency}`));
      const pending = c.byStatus.find((s) => s.status === 'pending');
      await expect(row).toContainText(`${new Intl.NumberFormat('en').format(pending?.count ?? 0)} pending`);
      await expect(row).toContainText(`${new Intl.NumberFormat('en').format(c.completed.count)} completed`);
      await expect(row).toContainText(`of ${new Intl.NumberFormat('en').format(c.created)} created`);
    }
    // Seven currencies at a glance: the page fits 1,800 px at 1280×800, no chart drawn yet.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(1800);
    await expect(page.getByRole('figure')).toHaveCount(0);

    const last = data.currencies.at(-1)!.currency;
    await table.getByRole('link', { name: `${last}: cards and charts` }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get('currency') === last);
    await expect(page.getByRole('region', { name: last, exact: true })).toBeVisible();
    await expect(page.getByRole('figure', { name: /collections created per/ }).first()).toBeVisible();
    await expect(table.getByRole('link', { name: `${last}: cards and charts` })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('says when a range holds nothing, and offers where the data is', async ({ page, request }) => {
    type Answer = { data: { perDay: unknown[]; latestActivity: string; range: { to: string } } };
    const week = ((await (await request.get('/api/overview?range=7d')).json()) as Answer).data;
    await page.goto('/overview?range=7d');
    const notice = page.getByRole('status').filter({ hasText: 'Nothing in the last 7 days' });
    // The sandbox's data is of fixed days (up to 20 Nov 2026, and what the tests add today): a week after it,
    // the last 7 days hold nothing and the page says where the latest activity is.
    if (week.perDay.length) await expect(notice).toHaveCount(0);
    else {
      await expect(notice).toContainText('Latest activity:');
      await notice
        .getByRole('link', { name: /Show the last|All time/ })
        .first()
        .click();
      // The last 30 days are the default range: its link is /overview itself.
      await expect(page).toHaveURL(/\/overview(\?range=(90d|all))?$/);
      await expect(page.getByRole('status').filter({ hasText: 'Nothing in the' })).toHaveCount(0);
    }
  });

  test('ships no chart code to the browser, and no more JS than the list', async ({ browser, baseURL }) => {
    const overview = await firstLoadJs(browser, `${baseURL}/overview`);
    const list = await firstLoadJs(browser, `${baseURL}/collections`);
    expect(overview.gzip).toBeLessThanOrEqual(list.gzip);
    // d3's tick step constants (Math.sqrt(50), folded or not) would be in any bundle that draws; the scripts
    // read are the first load's (one answered after the page went idle is not, and its read is never awaited).
    expect(overview.scripts.length).toBeGreaterThan(0);
    for (const { body } of overview.scripts) {
      const text = body.toString('utf8');
      expect(text).not.toContain('Math.sqrt(50)');
      expect(text).not.toContain('7.0710678118654755');
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`is axe-clean in ${colorScheme} mode, at 1280 px and 375 px`, async ({ page, axe }) => {
      // Four axe runs, two over a currency's 90 days of charts and their tables: past the default 30 s with two
      // workers sharing two cores.
      test.slow();
      await page.emulateMedia({ colorScheme });
      for (const width of [1280, 375])
        for (const path of ['/overview?range=90d', '/overview?range=90d&currency=NGN']) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(path);
          await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
          await axe(page);
        }
    });
  }
});
