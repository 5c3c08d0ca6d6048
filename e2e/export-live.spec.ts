import { ownServers } from './processes';
import { expect, test } from './fixtures';

/**
 * The live export's Cancel and its failure part-way, on servers of this file's
 * own: a sandbox whose request log counts the list requests, and a dashboard
 * with the index off (so the export is the only reader of the list) pacing
 * list requests at one a second.
 */
test.describe.configure({ mode: 'serial' });

const servers = ownServers('export-live', 30, { INDEX: 'off', INDEX_SYNC_RPS: '1', API_TIMEOUT_MS: '1500' });
const SANDBOX = servers.sandboxURL;
const BASE = servers.baseURL;

const listRequests = async () =>
  ((await (await fetch(`${SANDBOX}/__sandbox/requests`)).json()) as { data: { path: string }[] }).data.filter((r) =>
    r.path.startsWith('/public/collections?'),
  ).length;

test.beforeAll(() => servers.start());
test.afterAll(() => servers.stop());

test('with the index off, the export reads live; Cancel stops the upstream requests and saves nothing', async ({
  page,
}) => {
  await page.goto(`${BASE}/collections`);
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const live = page.getByRole('checkbox', { name: /Read live from the API/ });
  await expect(live).toBeChecked();
  await expect(live).toBeDisabled();
  let downloaded = false;
  page.on('download', () => (downloaded = true));
  const before = await listRequests();
  await page.getByRole('button', { name: 'Download CSV' }).click();
  // The first page is in; the next ones are a second apart.
  await expect(page.getByText(/^100 of \d+ rows$/)).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Export progress' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Export cancelled: no file was saved.')).toBeVisible();
  const atCancel = await listRequests();
  await page.waitForTimeout(2_500);
  expect(await listRequests()).toBe(atCancel);
  // 253 rows are three pages: the third was never asked for.
  expect(atCancel - before).toBeLessThan(3);
  expect(downloaded).toBe(false);
});

test('an upstream that fails part-way fails the export with Retry, never a short file', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(`${BASE}/collections`);
  await page.getByRole('button', { name: 'Export CSV' }).click();
  let downloaded = false;
  page.on('download', () => (downloaded = true));
  await page.getByRole('button', { name: 'Download CSV' }).click();
  await expect(page.getByText(/^100 of \d+ rows$/)).toBeVisible();
  servers.sandbox().kill('SIGKILL');
  const failed = page.getByRole('alert').filter({ hasText: 'stopped part-way' });
  await expect(failed).toContainText('no file was saved', { timeout: 25_000 });
  await expect(failed.getByRole('button', { name: 'Retry' })).toBeVisible();
  expect(downloaded).toBe(false);
  // The operator's log says why in one JSON line; Next's own unstructured "failed to pipe response" is not there.
  const failures = () =>
    servers
      .dashboardOutput()
      .split('\n')
      .filter((line) => line.includes('live export failed'))
      .map((line) => JSON.parse(line) as unknown);
  await expect
    .poll(failures)
    .toEqual([expect.objectContaining({ level: 40, code: 'upstream_unreachable', msg: 'live export failed' })]);
  expect(servers.dashboardOutput()).not.toContain('failed to pipe response');
});
