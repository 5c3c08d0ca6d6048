import { FAULT_PAGES, faultId, type FaultKind } from '../sandbox/faults';
import { expect, test } from './fixtures';

/**
 * Honest statuses: a page whose upstream read failed answers the HTTP status `/api` answers for the same
 * failure, while it renders its friendly error state; 404, 403 and a page that renders answer as before.
 */
const pagesAndTheirApi = (kind: FaultKind): [string, string][] => [
  [`/collections?page=${FAULT_PAGES[kind]}`, `/api/collections?page=${FAULT_PAGES[kind]}`],
  [`/collections/${faultId('pay', kind)}`, `/api/collections/${faultId('pay', kind)}`],
  [`/providers/${faultId('prv', kind)}`, `/api/providers/${faultId('prv', kind)}`],
];

test.describe('HTTP status of every page', () => {
  for (const [kind, status] of [
    ['500', 502],
    ['503', 502],
    ['reset', 502],
    ['401', 502],
    ['429', 429],
    ['slow', 504],
  ] as const) {
    test(`answers ${status} as /api does when the upstream fails (${kind}), with its error state`, async ({
      request,
    }) => {
      if (kind === 'slow') test.slow(); // three upstream timeouts, pages and API side by side
      for (const [pageUrl, apiUrl] of pagesAndTheirApi(kind)) {
        const [page, api] = await Promise.all([request.get(pageUrl), request.get(apiUrl)]);
        expect({ url: apiUrl, status: api.status() }).toEqual({ url: apiUrl, status });
        expect({ url: pageUrl, status: page.status() }).toEqual({ url: pageUrl, status });
        expect(await page.text()).toContain('role="alert"');
      }
    });
  }

  test('answers 404, 403 and 200 as before', async ({ request, sandbox }) => {
    for (const [url, status] of [
      ['/collections/pay_doesnotexist', 404],
      [`/collections/${sandbox.other.collections.integrated[0]}`, 403],
      [`/collections/${sandbox.demo.collections.integrated[0]}`, 200],
      ['/collections', 200],
    ] as const)
      expect({ url, status: (await request.get(url)).status() }).toEqual({ url, status });
  });

  test('shows the error state under its status in the browser, and Retry reads the page again', async ({ page }) => {
    const response = await page.goto(`/collections/${faultId('pay', '500')}`);
    expect(response?.status()).toBe(502);
    const alert = page.getByRole('alert').filter({ hasText: 'The upstream API failed to answer' });
    await expect(alert).toBeVisible();
    // Retry asks for the page's payload again (the router's request keeps 200): still down, still shown.
    const again = page.waitForResponse(
      (r) => r.url().includes(faultId('pay', '500')) && r.request().method() === 'GET',
    );
    await alert.getByRole('button', { name: 'Retry' }).click();
    expect((await again).status()).toBe(200);
    await expect(page.getByRole('alert').filter({ hasText: 'The upstream API failed to answer' })).toBeVisible();
  });
});
