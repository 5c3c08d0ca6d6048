import type { APIRequestContext, Page } from '@playwright/test';
import type { Collection } from '../lib/api/schemas';
import { expect, indexReady, test } from './fixtures';

/**
 * A page per contact (contract section 14), as a support agent reaches it: from a collection's contact
 * card and from search results; its totals and every collection of that contact compared with the
 * upstream's own data; the other contact ids under the same e-mail; and the API's answers.
 */
test.beforeEach(async ({ request }) => indexReady(request));

/** Every collection the upstream lists for the demo account, read live through the dashboard. */
async function upstreamCollections(request: APIRequestContext): Promise<Collection[]> {
  const all: Collection[] = [];
  for (let page = 1; ; page++) {
    const body = (await (await request.get(`/api/collections?page=${page}&limit=100`)).json()) as {
      data: Collection[];
      meta: { next: number | null };
    };
    all.push(...body.data);
    if (body.meta.next === null) return all;
  }
}

const byContact = (all: Collection[]) => {
  const groups = new Map<string, Collection[]>();
  for (const c of all) groups.set(c.contact.id, [...(groups.get(c.contact.id) ?? []), c]);
  return groups;
};

const table = (page: Page) => page.getByRole('table', { name: /^Collections of / });

test('a returning customer: from a collection to the contact page, its totals and every collection', async ({
  page,
  request,
  axe,
}) => {
  const all = await upstreamCollections(request);
  // The customer with the most collections (the sandbox's regulars hold several each).
  const [contactId, theirs] = [...byContact(all)].sort((a, b) => b[1].length - a[1].length)[0]!;
  expect(theirs.length).toBeGreaterThan(1);
  const name = `${theirs[0]!.contact.firstName} ${theirs[0]!.contact.lastName}`;

  // From one of the collections: the contact card links the contact's page with its count.
  await page.goto(`/collections/${theirs.at(-1)!.id}`);
  const link = page
    .getByRole('region', { name: 'Contact', exact: true })
    .getByRole('link', { name: `All collections for this contact (${theirs.length})` });
  await link.click();
  await expect(page).toHaveURL(`/contacts/${contactId}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  // Every one of the contact's collections, and no other, newest first.
  const rows = table(page).getByRole('row');
  await expect(rows).toHaveCount(theirs.length + 1);
  const newestFirst = [...theirs].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  for (const [i, c] of newestFirst.entries())
    await expect(rows.nth(i + 1).getByRole('link', { name: c.reference })).toHaveAttribute(
      'href',
      `/collections/${c.id}`,
    );

  // The totals per currency, as the upstream's records add up.
  const totals = page.getByRole('table', { name: 'Totals by currency' });
  for (const currency of new Set(theirs.map((c) => c.amount.currency))) {
    const mine = theirs.filter((c) => c.amount.currency === currency);
    const row = totals.getByRole('row').filter({ has: page.getByRole('rowheader', { name: currency }) });
    const cells = row.getByRole('cell');
    const expectBucket = async (cell: number, list: Collection[]) => {
      if (!list.length) return expect(cells.nth(cell)).toHaveText('—');
      await expect(cells.nth(cell)).toContainText(`${list.length} ${list.length === 1 ? 'collection' : 'collections'}`);
      await expect(cells.nth(cell)).toContainText(
        new Intl.NumberFormat('en').format(list.reduce((sum, c) => sum + c.amount.value, 0)),
      );
    };
    await expectBucket(
      0,
      mine.filter((c) => c.status === 'pending'),
    );
    await expectBucket(
      1,
      mine.filter((c) => c.status === 'completed'),
    );
    await expectBucket(
      2,
      mine.filter((c) => c.status !== 'pending' && c.status !== 'completed'),
    );
  }

  // The list's filters stay on the contact: sorted by amount, the same collections, largest first.
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption('-amount');
  await expect(page).toHaveURL(`/contacts/${contactId}?sort=-amount`);
  await expect(rows).toHaveCount(theirs.length + 1);
  const largest = [...theirs].sort((a, b) => b.amount.value - a.amount.value || b.id.localeCompare(a.id))[0]!;
  await expect(rows.nth(1).getByRole('link', { name: largest.reference })).toBeVisible();

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await axe(page);
  }
});

test('a person created again upstream: the page offers the other contact id under the same e-mail', async ({
  page,
  request,
}) => {
  const all = await upstreamCollections(request);
  const groups = byContact(all);
  const ids = (email: string) => [...new Set(all.filter((c) => c.contact.email === email).map((c) => c.contact.id))];
  const twice = all.find((c) => ids(c.contact.email).length > 1)!;
  expect(twice, 'the sandbox holds a person created twice').toBeTruthy();
  const other = ids(twice.contact.email).find((id) => id !== twice.contact.id)!;

  await page.goto(`/contacts/${twice.contact.id}`);
  const same = page.getByRole('region', { name: 'Same e-mail, other contact ids' });
  const link = same.getByRole('link', { name: `${twice.contact.firstName} ${twice.contact.lastName}` });
  await expect(link).toHaveAttribute('href', `/contacts/${other}`);
  await expect(same).toContainText(`${groups.get(other)!.length} collection`);
  await link.click();
  await expect(page).toHaveURL(`/contacts/${other}`);
  await expect(table(page).getByRole('row')).toHaveCount(groups.get(other)!.length + 1);
});

test('search results link each person to their contact page', async ({ page, request, sandbox }) => {
  const [id, c] = Object.entries(sandbox.demo.contacts)[0]!;
  const record = (await (await request.get(`/api/collections/${id}`)).json()).data as Collection;
  await page.goto(`/search?${new URLSearchParams({ q: c.email })}`);
  const results = page.getByRole('region', { name: 'Collections table' });
  await results
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: c.reference }) })
    .getByRole('link', { name: `${c.firstName} ${c.lastName}` })
    .click();
  await expect(page).toHaveURL(`/contacts/${record.contact.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `${c.firstName} ${c.lastName}` })).toBeVisible();
});

test('the contacts API: the contact and its collections, 404 for one the index does not hold, 400 for a bad id', async ({
  request,
}) => {
  const all = await upstreamCollections(request);
  const [contactId, theirs] = [...byContact(all)].sort((a, b) => b[1].length - a[1].length)[0]!;
  const res = await request.get(`/api/contacts/${contactId}?limit=1`);
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body.data.contact.firstName).toBe(theirs[0]!.contact.firstName);
  expect(body.data.contact.emailMasked).not.toBe(theirs[0]!.contact.email);
  expect(body.data.collections).toHaveLength(1);
  expect(body.meta).toMatchObject({ count: theirs.length, source: 'index', next: 2 });

  const missing = await request.get('/api/contacts/contact_nobody_here');
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toMatchObject({ code: 'not_found', message: 'Contact not found' });
  const bad = await request.get('/api/contacts/contact_bad!id');
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toMatchObject({ code: 'bad_request', message: 'Invalid contact id' });
  const badFilter = await request.get(`/api/contacts/${contactId}?status=`);
  expect(badFilter.status()).toBe(400);
  expect((await badFilter.json()).message).toMatch(/status/);

  // A contact page for an unknown contact is the not-found page.
  const page404 = await request.get('/contacts/contact_nobody_here');
  expect(page404.status()).toBe(404);
});
