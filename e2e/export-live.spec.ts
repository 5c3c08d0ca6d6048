import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binPath } from '../scripts/run-bin.mjs';
import { E2E } from './env';
import { spawnProcess } from './processes';
import { expect, test } from './fixtures';

/**
 * The live export's Cancel and its failure part-way, on servers of this file's
 * own: a sandbox whose request log counts the list requests, and a dashboard
 * with the index off (so the export is the only reader of the list) pacing
 * list requests at one a second.
 */
test.describe.configure({ mode: 'serial' });

const SANDBOX_PORT = E2E.sandboxPort + 30;
const SANDBOX = `http://127.0.0.1:${SANDBOX_PORT}`;
const PORT = E2E.port + 30;
const BASE = `http://127.0.0.1:${PORT}`;
const children: ChildProcess[] = [];
let sandbox: ChildProcess;
let dir: string;

const listRequests = async () =>
  ((await (await fetch(`${SANDBOX}/__sandbox/requests`)).json()) as { data: { path: string }[] }).data.filter((r) =>
    r.path.startsWith('/public/collections?'),
  ).length;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'export-live-'));
  // One process (tsx as a loader, not its CLI's child process), so killing it takes the sandbox down.
  sandbox = spawnProcess('--import', ['tsx', 'sandbox/main.ts'], {
    SANDBOX_PORT: String(SANDBOX_PORT),
    SANDBOX_FAULTS: '1',
    SANDBOX_DB: join(dir, 'sandbox.sqlite'),
  }).child;
  children.push(sandbox);
  children.push(
    spawnProcess(binPath('next'), ['start', '-p', String(PORT), '-H', '127.0.0.1'], {
      SANDBOX_PORT: String(SANDBOX_PORT),
      INDEX: 'off',
      INDEX_SYNC_RPS: '1',
      API_TIMEOUT_MS: '1500',
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
  sandbox.kill('SIGKILL');
  const failed = page.getByRole('alert').filter({ hasText: 'stopped part-way' });
  await expect(failed).toContainText('no file was saved', { timeout: 25_000 });
  await expect(failed.getByRole('button', { name: 'Retry' })).toBeVisible();
  expect(downloaded).toBe(false);
});
