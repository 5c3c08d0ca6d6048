import type { Page } from '@playwright/test';
import { expect, expectHydrated, indexReady, test } from './fixtures';

/**
 * Bulk lookup, as a support agent with a ticket: paste the whole e-mail thread,
 * get one row per record it names, each with its own state.
 */
async function openLookup(page: Page) {
  await page.goto('/lookup');
  const text = page.getByRole('textbox', { name: 'Paste a ticket' });
  await expectHydrated(page.getByRole('button', { name: 'Look up' }));
  return text;
}

const results = (page: Page) => page.getByRole('table', { name: 'Lookup results' });
const row = (page: Page, found: string) =>
  results(page).getByRole('row', { name: new RegExp(`^${found.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`) });

test.beforeEach(async ({ request }) => indexReady(request));

test('a pasted ticket: every id, e-mail and reference in it looked up, each with its own state', async ({
  page,
  sandbox,
  baseURL,
}) => {
  const [emailId, byEmail] = Object.entries(sandbox.demo.contacts)[0]!;
  const [referenceId, byReference] = Object.entries(sandbox.demo.contacts)[1]!;
  const mine = sandbox.demo.collections.notIntegrated[0]!;
  const theirs = sandbox.other.collections.integrated[0]!;
  const provider = sandbox.demo.providers[0]!;
  const ticket = [
    `From: ${byEmail.firstName} ${byEmail.lastName} <${byEmail.email.toUpperCase()}>`,
    'Sent: Monday, 23 November 2026 14:05 (UTF-8)',
    'Subject: RE: payment of NGN 12,500.00 not showing',
    '',
    `Hi, I paid ${byReference.reference} on 2026-11-20 and the link ${baseURL}/collections/${mine}?from=mail`,
    `still says pending. My colleague's is ${theirs}. Provider: ${provider}.`,
    `Also this one: pay_doesNotExist42, and again ${mine}.`,
    '> quoted earlier message, ticket #48213',
  ].join('\r\n');

  const text = await openLookup(page);
  await text.fill(ticket);
  await page.getByRole('button', { name: 'Look up' }).click();

  await expect(page.getByRole('status').filter({ hasText: /looked up:/ })).toHaveText(
    /6 looked up: 4 found, 1 not found, 1 in another account/,
  );
  const found = results(page).getByRole('row');
  // A header and one row per finding, in the order of the text, the repeated id once.
  await expect(found).toHaveCount(7);
  await expect(found.nth(1).getByRole('rowheader')).toHaveText(byEmail.email);
  await expect(found.nth(2).getByRole('rowheader')).toHaveText(byReference.reference);
  await expect(found.nth(3).getByRole('rowheader')).toHaveText(mine);

  await expect(row(page, byEmail.email)).toContainText('E-mail');
  await expect(row(page, byEmail.email).getByRole('link', { name: byEmail.reference })).toHaveAttribute(
    'href',
    `/collections/${emailId}`,
  );
  await expect(row(page, byReference.reference).getByRole('link', { name: byReference.reference })).toHaveAttribute(
    'href',
    `/collections/${referenceId}`,
  );
  await expect(row(page, mine)).toContainText('Collection id');
  await expect(row(page, mine).getByRole('link')).toHaveAttribute('href', `/collections/${mine}`);
  await expect(row(page, theirs)).toContainText('Belongs to a different account');
  await expect(row(page, provider)).toContainText('Provider id');
  await expect(row(page, provider).getByRole('link')).toHaveAttribute('href', `/providers/${provider}`);
  await expect(row(page, 'pay_doesNotExist42')).toContainText('Not found');

  // Copy results: tab-separated, a header and a line per row.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await page.getByRole('button', { name: 'Copy results' }).click();
  await expect(page.getByText('Copied 6 rows as tab-separated text')).toBeVisible();
  const tsv = (await page.evaluate(() => navigator.clipboard.readText())).split('\n');
  expect(tsv[0]).toBe('Found\tKind\tResult\tLink');
  expect(tsv).toHaveLength(7);
  expect(tsv[3]).toMatch(new RegExp(`^${mine}\\tCollection id\\t.+\\t${baseURL}/collections/${mine}$`));
  expect(tsv.find((line) => line.startsWith(theirs))).toBe(
    `${theirs}\tCollection id\tBelongs to a different account\t`,
  );
});

test('an id a ticket wrote in capitals is looked up as the search box opens it', async ({ page, sandbox }) => {
  const id = sandbox.demo.collections.integrated[0]!;
  const shouted = `PAY_${id.slice('pay_'.length)}`;
  // The header's search box opens it: the prefix in any case names the same record.
  await page.goto('/lookup');
  const box = page.getByRole('banner').getByRole('combobox', { name: 'Search' });
  await expectHydrated(box);
  await box.fill(shouted);
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/collections/${id}$`));

  const text = await openLookup(page);
  await text.fill(`Hi, my payment ${shouted} still says pending.`);
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page.getByRole('status').filter({ hasText: /looked up:/ })).toHaveText(/1 looked up: 1 found/);
  await expect(row(page, id)).toContainText('Collection id');
  await expect(row(page, id).getByRole('link')).toHaveAttribute('href', `/collections/${id}`);
});

test('an upstream failure is that row’s error, with a Retry of its own', async ({ page, sandbox }) => {
  test.skip(!sandbox.faults.enabled, 'needs the sandbox’s fault ids');
  const failing = (sandbox.faults as { collections: Record<string, string> }).collections['500']!;
  const fine = sandbox.demo.collections.integrated[0]!;
  const text = await openLookup(page);
  await text.fill(`${failing}\n${fine}`);
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(row(page, failing)).toContainText('Error: The upstream API failed to answer');
  await expect(row(page, fine).getByRole('link')).toBeVisible();
  const retry = row(page, failing).getByRole('button', { name: `Retry ${failing}` });
  await retry.click();
  // Looked up again (and failing again: the fault is permanent), the other row untouched.
  await expect(row(page, failing)).toContainText('Error: The upstream API failed to answer');
  await expect(page.getByRole('status').filter({ hasText: /looked up:/ })).toHaveText(/2 looked up: 1 found, 1 failed/);
});

test('text with nothing to look up says so; a paste over 1 MB is refused, not cut', async ({ page }) => {
  const text = await openLookup(page);
  await text.fill('Thanks, all sorted now! Sent 23/11/2026 at 14:05.');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Nothing to look up/ })).toBeVisible();
  await expect(results(page)).toHaveCount(0);

  await text.fill(`pay_first ${'x'.repeat(1024 * 1024)}`);
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'That paste' })).toHaveText(
    /That paste is 1,025 KB; Lookup reads at most 1,024 KB \(1 MB\)/,
  );
  await expect(results(page)).toHaveCount(0);
});

test('reachable from the navigation, by keyboard, and axe-clean in light and dark with results', async ({
  page,
  axe,
  sandbox,
}) => {
  await page.goto('/collections');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lookup' }).click();
  await expect(page).toHaveURL(/\/lookup$/);
  await expect(page).toHaveTitle(/Lookup/);
  const text = await openLookup(page);
  await text.fill(`${sandbox.demo.collections.integrated[0]} pay_missing1`);
  await text.press('Control+Enter');
  await expect(page.getByRole('status').filter({ hasText: /looked up:/ })).toBeVisible();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await axe(page);
  }
});
