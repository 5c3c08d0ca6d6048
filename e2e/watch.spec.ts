import { ownServers } from './processes';
import { expect, expectHydrated, test } from './fixtures';

/**
 * Watching a pending collection until it is paid, on servers of this file's
 * own: the sandbox's test route adds a collection and completes it, which
 * must not disturb the shared sandbox other files count rows of.
 */
test.describe.configure({ mode: 'serial' });

const servers = ownServers('watch', 40, { INDEX: 'off' });
const SANDBOX = servers.sandboxURL;
const BASE = servers.baseURL;

test.beforeAll(() => servers.start());
test.afterAll(() => servers.stop());

test('Watch a pending collection: the payment shows up, is announced, marks the tab, and the watch ends', async ({
  page,
  request,
}) => {
  const added = await request.post(`${SANDBOX}/__sandbox/collections`, { data: { record: {} } });
  expect(added.status()).toBe(201);
  const { id, status } = (await added.json()).data as { id: string; status: string };
  expect(status).toBe('pending');

  await page.goto(`${BASE}/collections/${id}`);
  const watch = page.getByRole('button', { name: 'Watch' });
  await expectHydrated(watch);
  await watch.click();
  await expect(page.getByText(/^Watching · (first check in a few seconds|checked \d+ s ago)$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop watching' })).toBeVisible();

  expect((await request.post(`${SANDBOX}/__sandbox/collections/${id}/complete`)).status()).toBe(200);

  // The next read (every 10 s) sees it.
  const changed = page.getByRole('list', { name: 'What changed' });
  await expect(changed.getByRole('listitem').filter({ hasText: 'status' })).toHaveText(/status\s+pending → completed/, {
    timeout: 20_000,
  });
  await expect(page.locator('[aria-live="polite"]').filter({ hasText: 'Collection changed' })).toHaveText(
    /status pending → completed/,
  );
  await expect(page.getByText('Stopped watching: the status is now completed')).toBeVisible();
  // The page's own figures refreshed, and the tab says something changed.
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Completed');
  await expect.poll(() => page.title()).toMatch(/^● Changed · /);
  // A completed collection has nothing to watch.
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('button', { name: 'Watch' })).toHaveCount(0);
});

test('Stop watching ends the reads; a completed collection offers no Watch, one on hold does', async ({
  page,
  request,
}) => {
  const { id } = (await (await request.post(`${SANDBOX}/__sandbox/collections`, { data: { record: {} } })).json())
    .data as { id: string };
  await page.goto(`${BASE}/collections/${id}`);
  await expectHydrated(page.getByRole('button', { name: 'Watch' }));
  await page.getByRole('button', { name: 'Watch' }).click();
  await page.getByRole('button', { name: 'Stop watching' }).click();
  await expect(page.getByText('Stopped watching', { exact: true })).toBeVisible();

  await request.post(`${SANDBOX}/__sandbox/collections/${id}/complete`);
  await page.reload();
  await expectHydrated(page.getByRole('button', { name: 'Pin' }));
  await expect(page.getByRole('button', { name: 'Watch' })).toHaveCount(0);

  // Every status that still waits offers it: on hold too (contract section 1's waiting meaning).
  const onHold = (
    (await (await request.post(`${SANDBOX}/__sandbox/collections`, { data: { record: { status: 'on_hold' } } })).json())
      .data as { id: string }
  ).id;
  await page.goto(`${BASE}/collections/${onHold}`);
  await expectHydrated(page.getByRole('button', { name: 'Watch' }));
});
