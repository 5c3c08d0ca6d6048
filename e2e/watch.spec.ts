import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binPath } from '../scripts/run-bin.mjs';
import { E2E } from './env';
import { spawnProcess } from './processes';
import { expect, expectHydrated, test } from './fixtures';

/**
 * Watching a pending collection until it is paid, on servers of this file's
 * own: the sandbox's test route adds a collection and completes it, which
 * must not disturb the shared sandbox other files count rows of.
 */
test.describe.configure({ mode: 'serial' });

const SANDBOX_PORT = E2E.sandboxPort + 40;
const SANDBOX = `http://127.0.0.1:${SANDBOX_PORT}`;
const PORT = E2E.port + 40;
const BASE = `http://127.0.0.1:${PORT}`;
const children: ChildProcess[] = [];
let dir: string;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watch-'));
  children.push(
    spawnProcess('--import', ['tsx', 'sandbox/main.ts'], {
      SANDBOX_PORT: String(SANDBOX_PORT),
      SANDBOX_FAULTS: '1',
      SANDBOX_DB: join(dir, 'sandbox.sqlite'),
    }).child,
  );
  children.push(
    spawnProcess(binPath('next'), ['start', '-p', String(PORT), '-H', '127.0.0.1'], {
      SANDBOX_PORT: String(SANDBOX_PORT),
      INDEX: 'off',
    }).child,
  );
  for (const url of [`${SANDBOX}/__sandbox/health`, `${BASE}/api/collections?limit=1`]) {
    await expect.poll(async () => (await fetch(url).catch(() => null))?.status, { timeout: 60_000 }).toBe(200);
  }
});

test.afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dir, { recursive: true, force: true });
});

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
  await expect(page.getByRole('heading', { level: 1 })).toContainText('completed');
  await expect.poll(() => page.title()).toMatch(/^● Changed · /);
  // A completed collection has nothing to watch.
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('button', { name: 'Watch' })).toHaveCount(0);
});

test('Stop watching ends the reads; a collection that is not pending offers no Watch', async ({ page, request }) => {
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
});
