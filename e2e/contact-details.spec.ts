import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { Collection } from '../lib/api/schemas';
import { maskEmail, maskPhone } from '../lib/format/mask';
import { E2E } from './env';
import { expect, expectHydrated, indexReady, signedIn, test } from './fixtures';

/**
 * One rule for a contact's e-mail and phone (contract section 10, issue 75): the same person looks the
 * same on every page that shows them (the list, a filtered list, search, the search box's suggestions,
 * Lookup, the contact page, the record page) and in the API's answers. The open dashboard shows them in
 * full (the default); the OpenID Connect one sets VIEWER_CONTACT_DETAILS=masked, so its viewer sees the
 * short mask everywhere while its admin sees them in full.
 */
type Reach = { email: string; phone: string };

/** The newest collection (first on the list, so on its first page) and its contact, read in full. */
async function newestPerson(request: APIRequestContext) {
  const body = (await (await request.get('/api/collections?limit=1')).json()) as { data: Collection[] };
  const record = body.data[0]!;
  expect(record.contact.email).toContain('@');
  expect(record.contact.phone).toMatch(/^\+\d/);
  return record;
}

/** A cell or card holding the person: what it must show, and (masked) what it must not. */
async function expectReach(where: Locator, shown: Reach, full: Reach, parts: (keyof Reach)[] = ['email', 'phone']) {
  for (const part of parts) await expect(where).toContainText(shown[part]);
  if (shown.email !== full.email) {
    await expect(where).not.toContainText(full.email);
    await expect(where).not.toContainText(full.phone.slice(0, -4));
  }
}

async function everyPage(page: Page, record: Collection, shown: Reach) {
  const full = { email: record.contact.email, phone: record.contact.phone };
  const name = `${record.contact.firstName} ${record.contact.lastName}`;
  const rowOf = (table: Locator) =>
    table.getByRole('row').filter({ has: page.getByRole('link', { name: record.reference, exact: true }) });
  const list = page.getByRole('region', { name: 'Collections table' });

  // The list (live from the upstream) and a filtered list (from the index): the same e-mail.
  await page.goto('/collections');
  await expectReach(rowOf(list), shown, full, ['email']);
  const amount = String(record.amount.value);
  // (A record another spec has just added reaches the index within a poll: the first index read waits for it.)
  await expect(async () => {
    await page.goto(`/collections?${new URLSearchParams({ amountMin: amount, amountMax: amount })}`);
    await expectReach(rowOf(list), shown, full, ['email']);
  }).toPass({ timeout: 20_000 });

  // A search for the name: e-mail and phone beside it.
  await page.goto(`/search?${new URLSearchParams({ q: name })}`);
  await expectReach(rowOf(page.getByRole('table').first()), shown, full);

  // The header's suggestions as the name is typed.
  const box = page.getByRole('combobox', { name: 'Search' });
  await expectHydrated(box);
  await box.fill(record.reference);
  const option = page
    .getByRole('listbox', { name: 'Search suggestions' })
    .getByRole('option', { name: new RegExp(record.reference) });
  await expectReach(option, shown, full);

  // Lookup of a ticket quoting the reference.
  await page.goto('/lookup');
  await expectHydrated(page.getByRole('button', { name: 'Look up' }));
  await page.getByRole('textbox', { name: 'Paste a ticket' }).fill(`Hi, I paid ${record.reference} yesterday.`);
  await page.getByRole('button', { name: 'Look up' }).click();
  await expectReach(page.getByRole('table', { name: 'Lookup results' }).getByRole('row').nth(1), shown, full);

  // The contact page and the record page.
  await page.goto(`/contacts/${record.contact.id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expectReach(page.getByRole('main'), shown, full);
  await page.goto(`/collections/${record.id}`);
  const card = page.getByRole('region', { name: 'Contact', exact: true });
  await expectReach(card, shown, full);
  const masked = shown.email !== full.email;
  await expect(card.getByRole('link', { name: full.email })).toHaveCount(masked ? 0 : 1);
  if (masked) await expect(card).toContainText('shown to admins');

  // The API's answers, as the page's own browser reads them.
  for (const path of [
    `/api/collections/${record.id}`,
    `/api/search?${new URLSearchParams({ q: name })}`,
    `/api/contacts/${record.contact.id}`,
    `/api/collections?${new URLSearchParams({ amountMin: amount, amountMax: amount })}`,
  ]) {
    const text = await (await page.request.get(path)).text();
    expect(text, path).toContain(JSON.stringify(shown.email));
    if (masked) expect(text, path).not.toContain(full.email);
  }
}

test.describe('open dashboard (the default, full)', () => {
  test.beforeEach(async ({ request }) => indexReady(request));

  test('shows a contact in full on every page and API answer', async ({ page, request }) => {
    const record = await newestPerson(request);
    await everyPage(page, record, { email: record.contact.email, phone: record.contact.phone });
  });
});

test.describe('signed in, VIEWER_CONTACT_DETAILS=masked', () => {
  test.use({ baseURL: E2E.oidcURL });
  test('a viewer sees the short mask everywhere; an admin sees the same person in full', async ({ browser }) => {
    // Two sign-ins and every page twice: past 30 s on a busy two-core CI machine.
    test.setTimeout(90_000);
    const admin = await signedIn(browser, 'admin@example.com');
    await indexReady(admin.request);
    const record = await newestPerson(admin.request);
    await everyPage(admin, record, { email: record.contact.email, phone: record.contact.phone });

    const viewer = await signedIn(browser, 'grace@example.com');
    const shown = { email: maskEmail(record.contact.email), phone: maskPhone(record.contact.phone) };
    expect(shown.email).toMatch(/^.•••@/);
    expect(shown.phone).toMatch(/^\+\d+ ••• ••• \d{4}$/);
    await everyPage(viewer, record, shown);
    // Exporting contact details is for whoever sees them in full.
    expect((await viewer.request.get('/api/export/collections.csv?live=1&contacts=1')).status()).toBe(403);
    expect((await admin.request.get('/api/export/collections.csv?live=1&contacts=1')).status()).toBe(200);
  });
});
