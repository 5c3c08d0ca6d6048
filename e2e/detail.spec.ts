import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { labelOf } from './labels';

/**
 * The collection detail and provider pages (contract section 5), read the way a
 * support agent reads them: by role and accessible name. Expected values come
 * from the dashboard's own API for the same id, never from hard-coded records.
 */

type Amount = { value: number; currency: string };
type LineItem = { name: string; description: string; quantity: number; amount: Amount };
type Collection = {
  id: string;
  type: string;
  reference: string;
  status: string;
  expiresIn: number;
  amount: Amount;
  contact: { id: string; firstName: string; lastName: string; phone: string; email: string };
  payable: { enabled: boolean; methods: string[]; options: unknown[] };
  followUp: { enabled: boolean; startAfter: number; cadence: string; channels: string[]; tone: string };
  metadata: LineItem[];
  events: Record<string, unknown>[];
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  [extra: string]: unknown;
};
type Provider = {
  id: string;
  name: string;
  slug: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  [extra: string]: unknown;
};

const label = labelOf;

/** "GHS 136,180": code, a plain space, en-US grouping, the value as given. */
const money = (a: Amount) =>
  `${a.currency} ${new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(a.value)}`;
/** "2026-11-20 16:45:12 UTC" */
const utc = (iso: string) => `${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
/** An exact time with its zone, "20 Nov 2026, 16:45:12 UTC": never only "3 days ago". */
const ABSOLUTE = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2}:\d{2} \S+$/;
/** Payment options and event details are worded for a reader: "Bank name" for bankName, "Not set" for null. */
const FIELD_LABELS: Record<string, string> = {
  method: 'Method',
  url: 'URL',
  reusable: 'Reusable',
  bankName: 'Bank name',
  accountNumber: 'Account number',
  expiresAt: 'Expires at',
  channel: 'Channel',
};
const fieldLabel = (key: string) => FIELD_LABELS[key] ?? key.charAt(0).toUpperCase() + key.slice(1);
const humanValue = (value: unknown) =>
  value === null ? 'Not set' : value === true ? 'Yes' : value === false ? 'No' : label(String(value));
/** An invented unit next to expiresIn or startAfter would break the contract. */
const INVENTED_UNIT = /\b\d+\s*(?:s|sec|seconds?|m|mins?|minutes?|h|hours?|d|days?)\b/i;
const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

async function fetchRecord<T = Collection>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(`/api${path}`);
  expect(res.status(), `GET /api${path}`).toBe(200);
  return (await res.json()).data as T;
}

function exampleId(examples: Record<string, string | null>, name: string): string {
  const id = examples[name];
  if (!id) throw new Error(`the sandbox fixtures name no "${name}" example`);
  return id;
}

/** Opens a page and checks the HTTP status of its server render. */
async function open(page: Page, path: string, status = 200) {
  const res = await page.goto(path);
  expect(res?.status(), `GET ${path}`).toBe(status);
}

/** The <dd> after the <dt> named `term` (exact), inside `scope`. */
const field = (scope: Locator, term: string) =>
  scope
    .getByRole('term')
    .filter({ hasText: exactly(term) })
    .locator('xpath=following-sibling::dd[1]');

async function expectTime(dd: Locator, iso: string) {
  const time = dd.locator('time');
  await expect(time).toHaveAttribute('datetime', iso);
  await expect(time).toHaveAttribute('title', utc(iso));
  await expect(time).toHaveText(ABSOLUTE);
}

/** Contract section 1: open shapes are rendered readably, never as "[object Object]". */
async function expectReadable(page: Page) {
  await expect(page.locator('body')).not.toContainText('[object Object]');
}

const main = (page: Page) => page.getByRole('main');
const region = (page: Page, name: string) => main(page).getByRole('region', { name, exact: true });
const rawJson = (page: Page) =>
  main(page)
    .locator('details')
    .filter({ has: page.locator('summary', { hasText: 'Raw JSON' }) });

async function openRawJson(page: Page) {
  const details = rawJson(page);
  await expect(details).toHaveJSProperty('open', false);
  await expect(details.getByRole('button', { name: 'Copy JSON' })).toBeHidden();
  await details.locator('summary').click();
  await expect(details).toHaveJSProperty('open', true);
  await expect(details.locator('pre')).toBeVisible();
  return details;
}

/**
 * Waits until the page is hydrated, the way a user would notice: pressing "/"
 * focuses the "Search" box (a handler the page installs once its scripts
 * run). Before that, a click on a client-side control would do nothing and an
 * Enter in the box would submit the form natively.
 */
async function interactive(page: Page) {
  const box = page.getByRole('combobox', { name: 'Search' });
  await expect(async () => {
    await page.keyboard.press('/');
    await expect(box).toBeFocused({ timeout: 500 });
  }).toPass();
  await box.blur();
}

/** The list page remembers itself for the detail page's back link once it has hydrated. */
async function listRemembered(page: Page, href: string) {
  await expect.poll(() => page.evaluate(() => Object.values(sessionStorage))).toContain(href);
}

const readClipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

async function grantClipboard(page: Page, baseURL: string | undefined) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
}

test.describe('Collection page: header', () => {
  test('shows amount, status, reference, type, id, timestamps and expiresIn as given (multipleLineItems)', async ({
    page,
    request,
    sandbox,
  }) => {
    const id = exampleId(sandbox.demo.examples, 'multipleLineItems');
    const c = await fetchRecord(request, `/collections/${id}`);
    await open(page, `/collections/${id}`);

    await expect(page).toHaveTitle(`${c.reference} · Collection · Collections Console`);
    await expect(page.getByText('Sandbox data', { exact: true })).toBeVisible();
    const heading = main(page).getByRole('heading', { level: 1 });
    await expect(heading).toContainText(money(c.amount));
    await expect(heading).toContainText(label(c.status));
    await expect(heading.getByText(money(c.amount), { exact: true })).toHaveClass(/text-3xl/);

    const m = main(page);
    await expect(field(m, 'Reference')).toHaveText(c.reference);
    await expect(field(m, 'Reference').getByRole('button', { name: 'Copy reference' })).toBeVisible();
    await expect(field(m, 'Type')).toHaveText(label(c.type));
    await expect(field(m, 'ID')).toHaveText(c.id);
    await expect(field(m, 'ID').getByRole('button', { name: 'Copy id' })).toBeVisible();
    await expect(field(m, 'Amount')).toHaveText(money(c.amount));
    await expect(field(m, 'Amount').getByRole('button', { name: 'Copy amount' })).toBeVisible();

    await expectTime(field(m, 'Created'), c.createdAt);
    await expectTime(field(m, 'Updated'), c.updatedAt);
    if (c.completedAt) await expectTime(field(m, 'Completed'), c.completedAt);
    else await expect(field(m, 'Completed')).toHaveText('Not completed');

    const expires = field(m, 'Expires in');
    await expect(expires).toContainText(String(c.expiresIn));
    await expect(expires).not.toHaveText(INVENTED_UNIT);
    await expect(expires.locator('time')).toHaveCount(0); // no computed expiry time
    await expect(region(page, 'Other fields')).toHaveCount(0); // a seeded record has no unknown fields
    await expectReadable(page);
  });

  test('copy buttons put the exact values on the clipboard (multipleLineItems)', async ({
    page,
    request,
    sandbox,
    baseURL,
  }) => {
    const id = exampleId(sandbox.demo.examples, 'multipleLineItems');
    const c = await fetchRecord(request, `/collections/${id}`);
    await grantClipboard(page, baseURL);
    await open(page, `/collections/${id}`);
    await interactive(page);

    const contact = region(page, 'Contact');
    const copies: [Locator, string][] = [
      [main(page).getByRole('button', { name: 'Copy reference' }), c.reference],
      [main(page).getByRole('button', { name: 'Copy id' }), c.id],
      [main(page).getByRole('button', { name: 'Copy amount' }), money(c.amount)],
      [contact.getByRole('button', { name: 'Copy name' }), `${c.contact.firstName} ${c.contact.lastName}`],
      [contact.getByRole('button', { name: 'Copy phone' }), c.contact.phone],
      [contact.getByRole('button', { name: 'Copy email' }), c.contact.email],
      [contact.getByRole('button', { name: 'Copy contact id' }), c.contact.id],
    ];
    for (const [button, value] of copies) {
      await button.click();
      await expect.poll(() => readClipboard(page)).toBe(value);
    }
    // The button's live region says "Copied" (for 1.5 s). Polled inside the page on
    // every animation frame, so a busy machine cannot make the check miss the window.
    const announced = page.waitForFunction(
      () =>
        document.querySelector('main button[aria-label="Copy reference"] [role="status"]')?.textContent === 'Copied',
      undefined,
      { polling: 'raf' },
    );
    await main(page).getByRole('button', { name: 'Copy reference' }).click();
    await announced;
  });
});

test.describe('Server rendering (JavaScript off)', () => {
  test.use({ javaScriptEnabled: false });

  test('a collection page arrives complete in the HTML (multipleLineItems)', async ({ page, request, sandbox }) => {
    const id = exampleId(sandbox.demo.examples, 'multipleLineItems');
    const c = await fetchRecord(request, `/collections/${id}`);
    await open(page, `/collections/${id}`);
    await expect(main(page).getByRole('heading', { level: 1 })).toContainText(money(c.amount));
    await expect(field(main(page), 'Reference')).toHaveText(c.reference);
    await expect(field(region(page, 'Contact'), 'Name')).toHaveText(`${c.contact.firstName} ${c.contact.lastName}`);
    await expect(region(page, 'Line items').getByRole('rowgroup').nth(1).getByRole('row')).toHaveCount(
      c.metadata.length,
    );
    for (const name of ['Payment methods', 'Follow-up', 'Events']) await expect(region(page, name)).toBeVisible();
    await expect(main(page).getByRole('link', { name: 'Back to collections' })).toHaveAttribute('href', '/collections');
    // <details> needs no script: the raw JSON opens and holds the record.
    const details = await openRawJson(page);
    expect(JSON.parse((await details.locator('pre').textContent())!)).toEqual(c);
  });

  test('a provider page arrives complete in the HTML (sandbox.demo.providers[0])', async ({
    page,
    request,
    sandbox,
  }) => {
    const p = await fetchRecord<Provider>(request, `/providers/${sandbox.demo.providers[0]}`);
    await open(page, `/providers/${p.id}`);
    await expect(main(page).getByRole('heading', { level: 1 })).toContainText(p.name);
    await expect(field(main(page), 'Slug')).toHaveText(p.slug);
    await expect(field(main(page), 'ID')).toHaveText(p.id);
  });
});

test.describe('Collection page: contact', () => {
  test('shows full name, phone as a tel: link, email as a mailto: link and contact id (unicodeName)', async ({
    page,
    request,
    sandbox,
  }) => {
    const id = exampleId(sandbox.demo.examples, 'unicodeName');
    const c = await fetchRecord(request, `/collections/${id}`);
    expect(`${c.contact.firstName}${c.contact.lastName}`).toMatch(/[^\x00-\x7f]/);
    await open(page, `/collections/${id}`);

    const contact = region(page, 'Contact');
    await expect(contact.getByRole('heading', { name: 'Contact' })).toBeVisible();
    await expect(field(contact, 'Name')).toHaveText(`${c.contact.firstName} ${c.contact.lastName}`);
    const phone = field(contact, 'Phone').getByRole('link', { name: c.contact.phone, exact: true });
    await expect(phone).toHaveAttribute('href', `tel:${c.contact.phone.replace(/[^\d+]/g, '')}`);
    const email = field(contact, 'Email').getByRole('link', { name: c.contact.email, exact: true });
    await expect(email).toHaveAttribute('href', `mailto:${c.contact.email}`);
    await expect(field(contact, 'Contact ID')).toHaveText(c.contact.id);
    for (const name of ['Copy name', 'Copy phone', 'Copy email', 'Copy contact id']) {
      await expect(contact.getByRole('button', { name })).toBeVisible();
    }
    await expectReadable(page);
  });
});

test.describe('Collection page: line items', () => {
  async function expectLineItems(page: Page, c: Collection) {
    const section = region(page, 'Line items');
    await expect(section).toContainText(`${c.metadata.length} ${c.metadata.length === 1 ? 'item' : 'items'}`);
    const table = section.getByRole('table');
    await expect(table.getByRole('columnheader')).toHaveText([
      'Name',
      'Description',
      'Quantity',
      'Amount',
      'Line total',
    ]);
    const rows = table.getByRole('rowgroup').nth(1).getByRole('row');
    await expect(rows).toHaveCount(c.metadata.length);
    for (const [i, item] of c.metadata.entries()) {
      await expect(rows.nth(i).getByRole('cell')).toHaveText([
        item.name,
        item.description,
        String(item.quantity),
        money(item.amount),
        money({ value: item.amount.value * item.quantity, currency: item.amount.currency }),
      ]);
    }
    const currencies = new Set(c.metadata.map((i) => i.amount.currency));
    expect(currencies.size, 'sandbox line items share one currency').toBe(1);
    const total = {
      value: c.metadata.reduce((sum, i) => sum + i.amount.value * i.quantity, 0),
      currency: [...currencies][0]!,
    };
    await expect(field(section, 'Line items total')).toHaveText(money(total));
    await expect(field(section, 'Collection amount')).toHaveText(money(c.amount));
    return { differs: total.value !== c.amount.value || total.currency !== c.amount.currency };
  }

  const DIFFERS = 'The line items add up to a different figure than the collection amount.';

  test('lists name, description, quantity, amount and line total, with totals (multipleLineItems)', async ({
    page,
    request,
    sandbox,
  }) => {
    const id = exampleId(sandbox.demo.examples, 'multipleLineItems');
    const c = await fetchRecord(request, `/collections/${id}`);
    expect(c.metadata.length).toBeGreaterThanOrEqual(3);
    await open(page, `/collections/${id}`);
    const { differs } = await expectLineItems(page, c);
    await expect(region(page, 'Line items').getByText(DIFFERS)).toHaveCount(differs ? 1 : 0);
  });

  test('says so when the line items add up to a different figure (itemsTotalDiffers)', async ({
    page,
    request,
    sandbox,
  }) => {
    const id = exampleId(sandbox.demo.examples, 'itemsTotalDiffers');
    const c = await fetchRecord(request, `/collections/${id}`);
    await open(page, `/collections/${id}`);
    const { differs } = await expectLineItems(page, c);
    expect(differs).toBe(true);
    await expect(region(page, 'Line items').getByText(DIFFERS)).toBeVisible();
  });

  test('shows "No line items" for a collection without any (noLineItems)', async ({ page, request, sandbox }) => {
    const id = exampleId(sandbox.demo.examples, 'noLineItems');
    const c = await fetchRecord(request, `/collections/${id}`);
    expect(c.metadata).toEqual([]);
    await open(page, `/collections/${id}`);
    const section = region(page, 'Line items');
    await expect(section.getByText('No line items', { exact: true })).toBeVisible();
    await expect(section.getByRole('table')).toHaveCount(0);
    await expect(section.getByText(DIFFERS)).toHaveCount(0);
  });
});

test.describe('Collection page: follow-up and payable', () => {
  test('follow-up on: enabled, start after as given, cadence, channels and tone labels (followUpOn)', async ({
    page,
    request,
    sandbox,
  }) => {
    const id = exampleId(sandbox.demo.examples, 'followUpOn');
    const c = await fetchRecord(request, `/collections/${id}`);
    await open(page, `/collections/${id}`);
    const f = region(page, 'Follow-up');
    await expect(field(f, 'Reminders')).toHaveText('Enabled');
    await expect(field(f, 'Start after')).toContainText(String(c.followUp.startAfter));
    await expect(field(f, 'Start after')).not.toHaveText(INVENTED_UNIT);
    await expect(field(f, 'Cadence')).toHaveText('Every 10 minutes');
    for (const channel of c.followUp.channels)
      await expect(field(f, 'Channels').getByText(label(channel), { exact: true })).toBeVisible();
    await expect(field(f, 'Tone')).toHaveText('Gentle');
  });

  test('follow-up off: disabled, settings still shown (followUpOff)', async ({ page, request, sandbox }) => {
    const id = exampleId(sandbox.demo.examples, 'followUpOff');
    const c = await fetchRecord(request, `/collections/${id}`);
    expect(c.followUp.enabled).toBe(false);
    await open(page, `/collections/${id}`);
    const f = region(page, 'Follow-up');
    await expect(field(f, 'Reminders')).toHaveText('Disabled');
    await expect(field(f, 'Start after')).toContainText(String(c.followUp.startAfter));
    await expect(field(f, 'Cadence')).toHaveText(label(c.followUp.cadence));
    await expect(field(f, 'Tone')).toHaveText(label(c.followUp.tone));
    await expectReadable(page);
  });

  test('payable: enabled flag, both methods and their options readably (bothMethods)', async ({
    page,
    request,
    sandbox,
  }) => {
    const id = exampleId(sandbox.demo.examples, 'bothMethods');
    const c = await fetchRecord(request, `/collections/${id}`);
    await open(page, `/collections/${id}`);
    const p = region(page, 'Payment methods');
    await expect(field(p, 'Payable')).toHaveText(c.payable.enabled ? 'Enabled' : 'Disabled');
    const methods = field(p, 'Methods');
    await expect(methods.getByText('Payment link', { exact: true })).toBeVisible();
    await expect(methods.getByText('Virtual account', { exact: true })).toBeVisible();
    const options = field(p, 'Options').getByRole('listitem');
    await expect(options).toHaveCount(c.payable.options.length);
    for (const [i, option] of c.payable.options.entries()) {
      for (const [key, value] of Object.entries(option as Record<string, unknown>)) {
        await expect(field(options.nth(i), fieldLabel(key))).toHaveText(humanValue(value));
      }
    }
    await expectReadable(page);
  });
});

test.describe('Collection page: events', () => {
  for (const name of ['withEvents', 'completed'] as const) {
    test(`draws a timeline, oldest first, when every event has a type and time (${name})`, async ({
      page,
      request,
      sandbox,
    }) => {
      const id = exampleId(sandbox.demo.examples, name);
      const c = await fetchRecord(request, `/collections/${id}`);
      expect(c.events.length).toBeGreaterThan(0);
      await open(page, `/collections/${id}`);
      const timeline = region(page, 'Events').getByRole('list', { name: 'Event timeline' });
      const entries = timeline.locator(':scope > li');
      await expect(entries).toHaveCount(c.events.length);
      const sorted = [...c.events].sort((a, b) => Date.parse(String(a.createdAt)) - Date.parse(String(b.createdAt)));
      for (const [i, event] of sorted.entries()) {
        const entry = entries.nth(i);
        await expect(entry).toContainText(String(event.type));
        await expect(entry.locator('time')).toHaveAttribute('title', utc(String(event.createdAt)));
        for (const [key, value] of Object.entries(event).filter(([k]) => k !== 'type' && k !== 'createdAt')) {
          await expect(field(entry, fieldLabel(key))).toHaveText(humanValue(value));
        }
      }
      await expectReadable(page);
    });
  }

  test('shows "No events yet" for a record without events (pay_fault_empty)', async ({ page }) => {
    await open(page, '/collections/pay_fault_empty');
    const events = region(page, 'Events');
    await expect(events.getByText('No events yet', { exact: true })).toBeVisible();
    await expect(events.getByRole('list')).toHaveCount(0);
  });
});

test.describe('Collection page: unknown values and extra fields (pay_fault_unknown)', () => {
  test('shows unknown enum values verbatim, open shapes readably, and extra fields under "Other fields"', async ({
    page,
    request,
  }) => {
    const c = await fetchRecord(request, '/collections/pay_fault_unknown');
    await open(page, '/collections/pay_fault_unknown');
    const m = main(page);
    await expect(m.getByRole('heading', { level: 1 })).toContainText('partially_paid');
    await expect(field(m, 'Type')).toHaveText('recurring_v2');
    await expect(field(m, 'Amount')).toHaveText(money(c.amount));

    const f = region(page, 'Follow-up');
    await expect(field(f, 'Cadence')).toHaveText('every_3d');
    await expect(field(f, 'Channels').getByText('WhatsApp', { exact: true })).toBeVisible();
    await expect(field(f, 'Channels').getByText('carrier_pigeon', { exact: true })).toBeVisible();
    await expect(field(f, 'Tone')).toHaveText('stern');

    const p = region(page, 'Payment methods');
    await expect(field(p, 'Methods').getByText('Payment link', { exact: true })).toBeVisible();
    await expect(field(p, 'Methods').getByText('crypto_wallet', { exact: true })).toBeVisible();
    const options = field(p, 'Options');
    await expect(field(options, 'Network')).toHaveText('lightning');
    await expect(field(options, 'Depth')).toHaveText('2');
    await expect(field(options, 'Tags').getByRole('listitem')).toHaveText(['a', 'b']);
    await expect(options.getByText('plain-string-option', { exact: true })).toBeVisible();
    await expect(options.getByText('42', { exact: true })).toBeVisible();

    // A mixed list (one event without type or time) is no timeline: its raw content is shown.
    const events = region(page, 'Events');
    await expect(events.getByRole('list', { name: 'Event timeline' })).toHaveCount(0);
    await expect(events.getByText('an event without a type or time', { exact: true })).toBeVisible();
    await expect(events.getByText('reminder.sent', { exact: true })).toBeVisible();
    await expect(field(events, 'weight')).toHaveText('3');

    const other = region(page, 'Other fields');
    await expect(field(other, 'riskScore')).toHaveText('0.42');
    await expect(field(other, 'labels').getByRole('listitem')).toHaveText(['vip', 'manual-review']);
    await expectReadable(page);
  });

  test('shows every empty state for a bare record (pay_fault_empty)', async ({ page }) => {
    await open(page, '/collections/pay_fault_empty');
    await expect(region(page, 'Line items').getByText('No line items', { exact: true })).toBeVisible();
    await expect(region(page, 'Events').getByText('No events yet', { exact: true })).toBeVisible();
    const p = region(page, 'Payment methods');
    await expect(field(p, 'Payable')).toHaveText('Disabled');
    await expect(field(p, 'Methods')).toHaveText('None');
    await expect(field(p, 'Options')).toHaveText('No options');
    await expect(field(region(page, 'Follow-up'), 'Reminders')).toHaveText('Disabled');
    await expect(region(page, 'Other fields')).toHaveCount(0);
    await expectReadable(page);
  });
});

test.describe('Collection page: raw JSON', () => {
  test('is collapsed, opens to the full record including unknown fields, and copies it (pay_fault_unknown)', async ({
    page,
    request,
    baseURL,
  }) => {
    const c = await fetchRecord(request, '/collections/pay_fault_unknown');
    await grantClipboard(page, baseURL);
    await open(page, '/collections/pay_fault_unknown');
    await interactive(page);
    const details = await openRawJson(page);
    const shown = JSON.parse((await details.locator('pre').textContent())!);
    expect(shown).toEqual(c);
    expect(shown).toMatchObject({
      riskScore: 0.42,
      labels: ['vip', 'manual-review'],
      contact: { loyaltyTier: 'gold' },
    });

    await details.getByRole('button', { name: 'Copy JSON' }).click();
    await expect.poll(async () => JSON.parse(await readClipboard(page))).toEqual(c);
  });

  test('downloads <id>.json holding the record (multipleLineItems)', async ({ page, request, sandbox }) => {
    const id = exampleId(sandbox.demo.examples, 'multipleLineItems');
    const c = await fetchRecord(request, `/collections/${id}`);
    await open(page, `/collections/${id}`);
    await interactive(page);
    const details = await openRawJson(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      details.getByRole('button', { name: 'Download JSON' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${id}.json`);
    expect(await download.failure()).toBeNull();
    expect(JSON.parse(await readFile((await download.path())!, 'utf8'))).toEqual(c);
  });
});

test.describe('Collection page: back to the list', () => {
  test('goes back to the list page the user came from, page and limit kept', async ({ page, request }) => {
    const listPage = (await (await request.get('/api/collections?page=3&limit=25')).json()).data as Collection[];
    const first = listPage[0]!;
    await open(page, '/collections?page=3&limit=25');
    await listRemembered(page, '/collections?page=3&limit=25');
    await main(page)
      .getByRole('region', { name: 'Collections table' })
      .getByRole('link', { name: first.reference, exact: true })
      .first()
      .click();
    await expect(page).toHaveURL(`/collections/${first.id}`);
    await expect(field(main(page), 'ID')).toHaveText(first.id);

    const back = main(page).getByRole('link', { name: 'Back to collections' });
    await expect(back).toHaveAttribute('href', '/collections?page=3&limit=25');
    await back.click();
    await expect(page).toHaveURL('/collections?page=3&limit=25');
    await expect(main(page).getByRole('link', { name: first.reference, exact: true }).first()).toBeVisible();
  });

  test('keeps the list page across a full page load of a detail page in the same tab', async ({ page, sandbox }) => {
    await open(page, '/collections?page=2&limit=50');
    await expect(main(page).getByRole('region', { name: 'Collections table' })).toBeVisible();
    await listRemembered(page, '/collections?page=2&limit=50');
    await open(page, `/collections/${sandbox.demo.collections.integrated[0]}`);
    await expect(main(page).getByRole('link', { name: 'Back to collections' })).toHaveAttribute(
      'href',
      '/collections?page=2&limit=50',
    );
  });

  test('goes to the first page when no list page was visited', async ({ page, sandbox }) => {
    await open(page, `/collections/${sandbox.demo.collections.integrated[1]}`);
    const back = main(page).getByRole('link', { name: 'Back to collections' });
    await expect(back).toHaveAttribute('href', '/collections');
    await back.click();
    await expect(page).toHaveURL('/collections');
    await expect(main(page).getByRole('heading', { name: 'Collections', level: 1 })).toBeVisible();
  });
});

test.describe('Collection page: record kinds', () => {
  test('renders a unicode contact name exactly, in the page and in the raw JSON (unicodeName)', async ({
    page,
    request,
    sandbox,
  }) => {
    const id = exampleId(sandbox.demo.examples, 'unicodeName');
    const c = await fetchRecord(request, `/collections/${id}`);
    const name = `${c.contact.firstName} ${c.contact.lastName}`;
    await open(page, `/collections/${id}`);
    await expect(field(region(page, 'Contact'), 'Name')).toHaveText(name);
    const details = await openRawJson(page);
    await expect(details.locator('pre')).toContainText(`"firstName": "${c.contact.firstName}"`);
    await expect(details.locator('pre')).toContainText(`"lastName": "${c.contact.lastName}"`);
  });

  test('shows the completion time of a completed collection (completed)', async ({ page, request, sandbox }) => {
    const id = exampleId(sandbox.demo.examples, 'completed');
    const c = await fetchRecord(request, `/collections/${id}`);
    expect(c.completedAt).not.toBeNull();
    await open(page, `/collections/${id}`);
    const completed = field(main(page), 'Completed');
    await expectTime(completed, c.completedAt!);
    await expect(completed).not.toContainText('Not completed');
    await expect(main(page).getByRole('heading', { level: 1 })).toContainText(label(c.status));
  });

  test('opens a non-integrated collection by id and shows its raw type (notIntegrated)', async ({
    page,
    request,
    sandbox,
  }) => {
    const id = exampleId(sandbox.demo.examples, 'notIntegrated');
    const c = await fetchRecord(request, `/collections/${id}`);
    expect(c.type).not.toBe('integrated');
    await open(page, `/collections/${id}`);
    await expect(field(main(page), 'Type')).toHaveText(c.type);
    await expect(field(main(page), 'Reference')).toHaveText(c.reference);
  });

  test('renders a record whose upstream fails twice, since the server retries (pay_fault_flaky-<uuid>)', async ({
    page,
  }) => {
    const id = `pay_fault_flaky-${randomUUID()}`;
    await open(page, `/collections/${id}`);
    await expect(field(main(page), 'ID')).toHaveText(id);
    await expect(main(page).getByRole('alert')).toHaveCount(0);
  });
});

test.describe('Error pages', () => {
  test('an unknown collection id is a 404 "Collection not found" (pay_doesnotexist)', async ({ page }) => {
    await open(page, '/collections/pay_doesnotexist', 404);
    await expect(main(page).getByRole('heading', { name: 'Collection not found', level: 1 })).toBeVisible();
  });

  test('an unknown provider id is a 404 "Provider not found" (prv_doesnotexist)', async ({ page }) => {
    await open(page, '/providers/prv_doesnotexist', 404);
    await expect(main(page).getByRole('heading', { name: 'Provider not found', level: 1 })).toBeVisible();
  });

  test("another account's collection and provider are a 403 (sandbox.other)", async ({ page, sandbox }) => {
    for (const path of [
      `/collections/${sandbox.other.collections.integrated[0]}`,
      `/providers/${sandbox.other.providers[0]}`,
    ]) {
      await open(page, path, 403);
      await expect(main(page)).toContainText('belongs to a different account');
      await expect(main(page).getByRole('heading', { name: 'Line items' })).toHaveCount(0);
    }
  });

  for (const path of [
    '/collections/abc',
    '/collections/pay_..%2F',
    '/collections/pay_',
    `/collections/pay_${'a'.repeat(129)}`,
  ]) {
    test(`a malformed collection id is a 404 not-found page (${path.slice(0, 32)})`, async ({ page }) => {
      await open(page, path, 404);
      await expect(main(page).getByRole('heading', { name: 'Collection not found', level: 1 })).toBeVisible();
    });
  }

  for (const path of ['/providers/abc', '/providers/pay_abc']) {
    test(`a malformed provider id is a 404 not-found page (${path})`, async ({ page }) => {
      await open(page, path, 404);
      await expect(main(page).getByRole('heading', { name: 'Provider not found', level: 1 })).toBeVisible();
    });
  }

  test('a rejected API key tells the operator to check API_KEY (pay_fault_401, prv_fault_401)', async ({ page }) => {
    for (const path of ['/collections/pay_fault_401', '/providers/prv_fault_401']) {
      await open(page, path, 502);
      const alert = main(page).getByRole('alert');
      await expect(alert.getByRole('heading')).toHaveText("The dashboard's API key was rejected");
      await expect(alert).toContainText('API_KEY');
      await expect(main(page).getByRole('heading', { name: 'Line items' })).toHaveCount(0);
    }
  });

  // The page's HTTP status is the one /api gives the failure (contract section 4).
  const failures = [
    ['pay_fault_500', 'The upstream API is down', 502],
    ['pay_fault_503', 'The upstream API is down', 502],
    ['pay_fault_reset', 'The upstream API is down', 502],
    ['pay_fault_slow', 'The upstream API is slow', 504],
    ['pay_fault_badshape', 'The upstream API sent data we cannot read', 502],
    ['pay_fault_malformed', 'The upstream API sent data we cannot read', 502],
    ['prv_fault_500', 'The upstream API is down', 502],
    ['prv_fault_badshape', 'The upstream API sent data we cannot read', 502],
  ] as const;
  for (const [id, title, status] of failures) {
    test(`an upstream failure is an alert with Retry, never a half-rendered page (${id})`, async ({ page }) => {
      await open(page, `/${id.startsWith('pay_') ? 'collections' : 'providers'}/${id}`, status);
      const alert = main(page).getByRole('alert');
      await expect(alert.getByRole('heading')).toHaveText(title);
      await expect(alert.getByRole('button', { name: 'Retry' })).toBeEnabled();
      await expect(main(page).getByRole('heading', { name: 'Line items' })).toHaveCount(0);
      await expect(main(page).getByRole('heading', { name: 'Events' })).toHaveCount(0);
      await expect(rawJson(page)).toHaveCount(0);
      await expect(main(page).getByRole('heading', { level: 1 })).toContainText(id);
    });
  }

  test('a rate-limited read says when to retry (pay_fault_429)', async ({ page }) => {
    await open(page, '/collections/pay_fault_429', 429);
    const alert = main(page).getByRole('alert');
    await expect(alert).toContainText(/rate limited, retry in \d+ s/);
    await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
  });

  test('Retry re-renders the page on the server and returns to "Retry" (pay_fault_500)', async ({ page }) => {
    await open(page, '/collections/pay_fault_500', 502);
    await interactive(page);
    const alert = main(page).getByRole('alert');
    const retry = alert.getByRole('button', { name: 'Retry' });
    const refreshed = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/collections/pay_fault_500' && r.request().headers()['rsc'] === '1',
    );
    await retry.click();
    expect((await refreshed).ok()).toBe(true);
    await expect(alert.getByRole('heading')).toHaveText('The upstream API is down');
    await expect(alert.getByRole('button', { name: 'Retry' })).toBeEnabled();
    await expect(main(page).getByRole('heading', { name: 'Line items' })).toHaveCount(0);
  });
});

test.describe('Provider page', () => {
  async function providers(request: APIRequestContext, ids: string[]) {
    return Promise.all(ids.map((id) => fetchRecord<Provider>(request, `/providers/${id}`)));
  }

  for (const enabled of [true, false]) {
    test(`shows name, slug, ${enabled ? 'Enabled' : 'Disabled'} badge, id, timestamps and raw JSON (sandbox.demo.providers)`, async ({
      page,
      request,
      sandbox,
    }) => {
      const p = (await providers(request, sandbox.demo.providers)).find((x) => x.enabled === enabled);
      if (!p) throw new Error(`the sandbox has no ${enabled ? 'enabled' : 'disabled'} provider`);
      await open(page, `/providers/${p.id}`);
      await expect(page).toHaveTitle(`${p.name} · Provider · Collections Console`);
      const heading = main(page).getByRole('heading', { level: 1 });
      await expect(heading).toContainText(p.name);
      await expect(heading.getByText(enabled ? 'Enabled' : 'Disabled', { exact: true })).toBeVisible();
      const m = main(page);
      await expect(field(m, 'Slug')).toHaveText(p.slug);
      await expect(field(m, 'ID')).toHaveText(p.id);
      await expect(field(m, 'ID').getByRole('button', { name: 'Copy id' })).toBeVisible();
      await expectTime(field(m, 'Created'), p.createdAt);
      await expectTime(field(m, 'Updated'), p.updatedAt);
      const details = await openRawJson(page);
      expect(JSON.parse((await details.locator('pre').textContent())!)).toEqual(p);
      await expectReadable(page);
    });
  }

  test('copies the id and downloads <id>.json (sandbox.demo.providers[0])', async ({
    page,
    request,
    sandbox,
    baseURL,
  }) => {
    const id = sandbox.demo.providers[0]!;
    const p = await fetchRecord<Provider>(request, `/providers/${id}`);
    await grantClipboard(page, baseURL);
    await open(page, `/providers/${id}`);
    await interactive(page);
    await main(page).getByRole('button', { name: 'Copy id' }).click();
    await expect.poll(() => readClipboard(page)).toBe(id);
    const details = await openRawJson(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      details.getByRole('button', { name: 'Download JSON' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${id}.json`);
    expect(JSON.parse(await readFile((await download.path())!, 'utf8'))).toEqual(p);
  });

  test('shows unknown fields under "Other fields" and in the raw JSON (prv_fault_unknown)', async ({
    page,
    request,
  }) => {
    const p = await fetchRecord<Provider>(request, '/providers/prv_fault_unknown');
    await open(page, '/providers/prv_fault_unknown');
    await expect(main(page).getByRole('heading', { level: 1 })).toContainText('Quantum Pay ✨');
    const other = region(page, 'Other fields');
    await expect(other).toContainText('region');
    await expect(other).toContainText('eu-west');
    await expect(other).toContainText('refunds');
    const details = await openRawJson(page);
    const shown = JSON.parse((await details.locator('pre').textContent())!);
    expect(shown).toEqual(p);
    expect(shown).toMatchObject({ region: 'eu-west', capabilities: ['refunds'] });
    await expectReadable(page);
  });
});

test.describe('Search box: ids and links', () => {
  test('opens a collection typed into the box (sandbox.demo.collections.integrated[2])', async ({
    page,
    request,
    sandbox,
  }) => {
    const id = sandbox.demo.collections.integrated[2]!;
    const c = await fetchRecord(request, `/collections/${id}`);
    await open(page, '/collections');
    await interactive(page);
    const box = page.getByRole('combobox', { name: 'Search' });
    await box.fill(id);
    await box.press('Enter');
    await expect(page).toHaveURL(`/collections/${id}`);
    await expect(field(main(page), 'Reference')).toHaveText(c.reference);
  });

  test('opens a provider typed into the box from a collection page (sandbox.demo.providers[1])', async ({
    page,
    request,
    sandbox,
  }) => {
    const id = sandbox.demo.providers[1]!;
    const p = await fetchRecord<Provider>(request, `/providers/${id}`);
    await open(page, `/collections/${sandbox.demo.collections.integrated[0]}`);
    await interactive(page);
    const box = page.getByRole('combobox', { name: 'Search' });
    await box.fill(id);
    await box.press('Enter');
    await expect(page).toHaveURL(`/providers/${id}`);
    await expect(main(page).getByRole('heading', { level: 1 })).toContainText(p.name);
    await expect(field(main(page), 'ID')).toHaveText(id);
  });

  test('opens a pasted dashboard link to a provider (sandbox.demo.providers[2])', async ({
    page,
    request,
    sandbox,
    baseURL,
  }) => {
    const id = sandbox.demo.providers[2]!;
    const p = await fetchRecord<Provider>(request, `/providers/${id}`);
    await open(page, '/collections');
    await interactive(page);
    const box = page.getByRole('combobox', { name: 'Search' });
    await box.fill(`  ${baseURL}/providers/${id}  `);
    await box.press('Enter');
    await expect(page).toHaveURL(`/providers/${id}`);
    await expect(main(page).getByRole('heading', { level: 1 })).toContainText(p.name);
  });

  test('an unknown id typed into the box lands on "Collection not found" (pay_doesnotexist)', async ({ page }) => {
    await open(page, '/collections');
    await interactive(page);
    const box = page.getByRole('combobox', { name: 'Search' });
    await box.fill('pay_doesnotexist');
    await box.press('Enter');
    await expect(page).toHaveURL('/collections/pay_doesnotexist');
    await expect(main(page).getByRole('heading', { name: 'Collection not found', level: 1 })).toBeVisible();
  });
});

test.describe('Accessibility', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`a collection page with Raw JSON open has no serious violations, ${scheme} (multipleLineItems)`, async ({
      page,
      sandbox,
      axe,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await open(page, `/collections/${exampleId(sandbox.demo.examples, 'multipleLineItems')}`);
      await openRawJson(page);
      await axe(page);
    });

    test(`a provider page has no serious violations, ${scheme} (sandbox.demo.providers[0])`, async ({
      page,
      sandbox,
      axe,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await open(page, `/providers/${sandbox.demo.providers[0]}`);
      await axe(page);
    });
  }
});
