import type { Page } from '@playwright/test';
import { expect, expectHydrated, indexReady, test } from './fixtures';
import { ownServers } from './processes';

/**
 * Counts that agree (issue 75): every "N of M" a page shows is one reading of the index, never N > M, and the
 * index popover and the list's count line agree, each saying what it is "as of". On the shared sandbox (its
 * data still) they agree exactly; on a sandbox of this file's own whose activity adds a collection every
 * 200 ms, each still says when, and no reading ever has more indexed than listed.
 */
const nf = new Intl.NumberFormat('en');
const number = (text: string) => Number(text.replace(/,/g, ''));
const AS_OF = /as of \d{1,2} [A-Z][a-z]{2}( \d{4})?, \d{2}:\d{2}:\d{2}/;

/** The live list's count line: "257 collections as of 28 Nov, 14:05:12 · …". */
async function listCount(page: Page) {
  const line = page.getByText(/^[\d,]+ collections? as of /);
  await expect(line).toBeVisible();
  const text = (await line.textContent())!;
  expect(text).toMatch(AS_OF);
  return number(/^([\d,]+)/.exec(text)![1]!);
}

/** The header's index popover, opened: its "Indexed" figures ("257 of 257 + 1 opened by id", as of when). */
async function popoverCount(page: Page) {
  const indicator = page.getByRole('banner').getByRole('button', { name: /^Search index: / });
  await expectHydrated(indicator);
  await indicator.click();
  const indexed = page
    .getByRole('banner')
    .getByRole('definition')
    .filter({ hasText: /^[\d,]+ of [\d,]+/ });
  await expect(indexed).toHaveText(AS_OF);
  const [, n, m] = /^([\d,]+) of ([\d,]+)/.exec((await indexed.textContent())!)!;
  await page.keyboard.press('Escape');
  return { indexed: number(n!), of: number(m!) };
}

type Status = { state: string; indexed: number; upstreamCount: number | null; countedAt: string | null };

test.describe('on the shared sandbox', () => {
  test.beforeEach(async ({ request }) => indexReady(request));

  test('the header popover, the list count line and /status say the same count, each as of when', async ({
    page,
    request,
    sandbox,
  }) => {
    await page.goto('/collections');
    const listed = await listCount(page);
    expect(listed).toBe(sandbox.demo.listedCollections);
    expect(await popoverCount(page)).toEqual({ indexed: listed, of: listed });

    const { data } = (await (await request.get('/api/index/status')).json()) as { data: Status };
    expect(data).toMatchObject({ indexed: listed, upstreamCount: listed });
    expect(Date.parse(data.countedAt!)).not.toBeNaN();

    await page.goto('/status');
    const figures = new RegExp(`^${nf.format(listed)} of ${nf.format(listed)}\\b`);
    await expect(page.getByRole('region', { name: 'Search index' }).getByText(figures)).toBeVisible();
  });
});

test.describe('while the sandbox adds collections', () => {
  test.describe.configure({ mode: 'serial' });
  const servers = ownServers(
    'counts',
    // Not +35: E2E_PORT 4010 + 35 is 4045, a port Next refuses (reserved for npp).
    33,
    { INDEX_POLL_S: '1' },
    { SANDBOX_ACTIVITY: '1', SANDBOX_ACTIVITY_MS: '200' },
  );
  test.use({ baseURL: servers.baseURL });
  test.beforeAll(() => servers.start());
  test.afterAll(() => servers.stop());

  test('no reading has more indexed than listed; the popover and the list each say as of when', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await indexReady(request, servers.baseURL);
    const readings: { indexed: number; of: number; where: string }[] = [];
    await page.goto('/collections');
    const first = await listCount(page);
    let last = first;
    // Each load reads the live list (and writes its page through to the index) as the sandbox adds to it.
    for (let round = 0; round < 8; round++) {
      await page.goto('/collections');
      last = await listCount(page);
      readings.push({ ...(await popoverCount(page)), where: `popover, round ${round}` });
      for (let i = 0; i < 5; i++) {
        const { data } = (await (await request.get('/api/index/status')).json()) as { data: Status };
        expect(data.state).toBe('ready');
        expect(Date.parse(data.countedAt!)).not.toBeNaN();
        readings.push({ indexed: data.indexed, of: data.upstreamCount!, where: `api, round ${round}` });
        await page.waitForTimeout(300);
      }
    }
    // The sandbox was adding all along: the list grew while it was read.
    expect(last).toBeGreaterThan(first);
    expect(readings.filter((r) => r.indexed > r.of)).toEqual([]);
  });
});
