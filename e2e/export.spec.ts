import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { APIRequestContext, Download, Page } from '@playwright/test';
import { expect, indexReady, test } from './fixtures';

/**
 * CSV export (contract section 8) against the e2e sandbox: files are taken
 * from the browser's download, parsed with a real CSV parser and compared with
 * the API's answer for the same view.
 */
const HEADER = [
  'id',
  'reference',
  'status',
  'type',
  'amount_value',
  'currency',
  'amount_formatted',
  'created_at',
  'updated_at',
  'completed_at',
  'contact_first_name',
  'contact_last_name',
  'line_item_count',
  'as_of',
];
const WITH_CONTACTS = [...HEADER.slice(0, 12), 'contact_email', 'contact_phone', ...HEADER.slice(12)];

type Row = Record<string, string>;
const parseCsv = (text: string) => {
  const [header, ...rows] = parse(text, { bom: true }) as string[][];
  return { header: header!, rows: rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])) as Row) };
};
const readDownload = async (download: Download) => parseCsv(readFileSync((await download.path())!, 'utf8'));

/** Every id of a view, page by page, from the dashboard's API. */
async function apiIds(request: APIRequestContext, path: string, query: string) {
  const ids: string[] = [];
  for (let page: number | null = 1; page;) {
    const body = await (await request.get(`${path}?${query}&limit=100&page=${page}`)).json();
    ids.push(...(body.data as { id: string }[]).map((r) => r.id));
    page = body.meta.next;
  }
  return ids;
}

async function exportFrom(page: Page, options: { contacts?: boolean; live?: boolean } = {}) {
  await page.getByRole('button', { name: 'Export CSV' }).click();
  if (options.contacts) await page.getByRole('checkbox', { name: /Include contact details/ }).check();
  if (options.live) await page.getByRole('checkbox', { name: /Read live from the API/ }).check();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole(options.live ? 'button' : 'link', { name: 'Download CSV' }).click(),
  ]);
  return download;
}

test.describe('CSV export', () => {
  test.beforeEach(async ({ request }) => indexReady(request));

  test('downloads exactly the filtered, sorted view, every page of it', async ({ page, request }) => {
    const query = 'status=pending&sort=-amount';
    await page.goto(`/collections?${query}`);
    const download = await exportFrom(page);
    expect(download.suggestedFilename()).toMatch(/^collections-\d{8}T\d{6}Z\.csv$/);
    const { header, rows } = await readDownload(download);
    expect(header).toEqual(HEADER);
    expect(rows.map((r) => r.id)).toEqual(await apiIds(request, '/api/collections', query));
    const first = (await (await request.get(`/api/collections?${query}&limit=1`)).json()).data[0];
    expect(rows[0]).toMatchObject({
      id: first.id,
      status: 'pending',
      amount_value: String(first.amount.value),
      currency: first.amount.currency,
      created_at: new Date(first.createdAt).toISOString(),
      contact_first_name: expect.stringContaining(first.contact.firstName.replace(/^[=+\-@\t\r]/, '')),
      line_item_count: String(first.lineItemCount),
    });
    for (const r of rows) {
      expect(r.status).toBe('pending');
      expect(Date.parse(r.as_of!)).not.toBeNaN();
      expect(r.amount_formatted).toContain(r.currency);
    }
  });

  test('adds e-mail and phone only when asked', async ({ page, sandbox }) => {
    const [id, contact] = Object.entries(sandbox.demo.contacts)[0]!;
    await page.goto(`/collections?q=${encodeURIComponent(contact.email)}`);
    const plain = await readDownload(await exportFrom(page));
    expect(plain.header).not.toContain('contact_email');
    await page.reload();
    const { header, rows } = await readDownload(await exportFrom(page, { contacts: true }));
    expect(header).toEqual(WITH_CONTACTS);
    const row = rows.find((r) => r.id === id)!;
    expect(row.contact_email).toBe(contact.email);
    // A phone starts with "+", so it is written as text ("'+…") like every cell a spreadsheet could run.
    expect(row.contact_phone).toBe(`'${contact.phone}`);
  });

  test('neutralises cells a spreadsheet would run as formulas', async ({ request, sandbox }) => {
    const res = await request.get('/api/export/collections.csv');
    const { rows } = parseCsv(await res.text());
    const injected = rows.filter((r) => sandbox.demo.formulaInjection.includes(r.id!));
    expect(injected).toHaveLength(6);
    const starts = new Set<string>();
    for (const r of injected) {
      for (const cell of [r.reference!, r.contact_first_name!, r.contact_last_name!]) {
        // Every cell of these records that would start a formula is prefixed; none starts with one.
        expect(cell).not.toMatch(/^[=+\-@\t\r]/);
        if (cell.startsWith("'")) starts.add(cell[1]!);
      }
    }
    expect([...starts].sort()).toEqual(['\t', '\r', '+', '-', '=', '@'].sort());
  });

  test('"For programs" writes every cell as it is (RFC 4180, no byte-order mark), named so', async ({
    page,
    sandbox,
  }) => {
    await page.goto('/collections');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByRole('checkbox', { name: /Include contact details/ }).check();
    await page.getByRole('radio', { name: /For programs/ }).check();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^collections-\d{8}T\d{6}Z-for-programs\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.startsWith('id,reference,')).toBe(true);
    const { rows } = parseCsv(text);
    // Phones keep their +, and the cells a spreadsheet would run are as the API gave them.
    expect(rows.some((r) => r.contact_phone!.startsWith('+'))).toBe(true);
    expect(rows.every((r) => !r.contact_phone!.startsWith("'"))).toBe(true);
    const injected = rows.filter((r) => sandbox.demo.formulaInjection.includes(r.id!));
    expect(injected).toHaveLength(6);
    const starts = new Set(
      injected.flatMap((r) => [r.reference!, r.contact_first_name!, r.contact_last_name!].map((c) => c[0])),
    );
    for (const start of ['=', '+', '-', '@']) expect(starts).toContain(start);
  });

  test('exports search results from /search', async ({ page, request, sandbox }) => {
    const lastName = Object.values(sandbox.demo.contacts)[0]!.lastName;
    await page.goto(`/search?q=${encodeURIComponent(lastName)}`);
    const { rows } = await readDownload(await exportFrom(page));
    expect(rows.map((r) => r.id)).toEqual(await apiIds(request, '/api/search', `q=${encodeURIComponent(lastName)}`));
  });

  test('reads the list live from the API with a progress line, all of it', async ({ page, sandbox }) => {
    await page.goto('/collections');
    const download = await exportFrom(page, { live: true });
    const { rows } = await readDownload(download);
    expect(rows).toHaveLength(sandbox.demo.listedCollections);
    await expect(page.getByText(/^Saved collections-.*\.csv \(\d+ rows\)\.$/)).toBeVisible();
  });

  test('answers as the contract says, and refuses bad input by name', async ({ request }) => {
    const res = await request.get('/api/export/collections.csv?status=pending&contacts=1');
    expect(res.status()).toBe(200);
    const headers = res.headers();
    expect(headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(headers['content-disposition']).toMatch(/^attachment; filename="collections-\d{8}T\d{6}Z\.csv"$/);
    expect(headers['cache-control']).toBe('private, no-store, no-transform');
    const text = await res.text();
    expect(text.startsWith('\ufeff')).toBe(true);
    expect(text.split('\r\n')[0]).toBe(`\ufeff${WITH_CONTACTS.join(',')}`);
    expect(parseCsv(text).rows).toHaveLength(Number(headers['x-total-count']));
    // From the index: how many collections it holds of how many (all of them, once a full scan completed).
    expect(headers['x-index-coverage']).toBe('1');
    expect(Number(headers['x-index-indexed'])).toBeGreaterThanOrEqual(Number(headers['x-upstream-count']));
    for (const [query, param] of [
      ['columns=reference,nope', 'columns'],
      ['format=excel', 'format'],
      ['contacts=yes', 'contacts'],
      ['live=1&status=pending', 'live'],
      ['live=2', 'live'],
      ['sort=name', 'sort'],
      ['amountMin=5&amountMax=1', 'amountMin'],
    ]) {
      const bad = await request.get(`/api/export/collections.csv?${query}`);
      expect(bad.status(), query).toBe(400);
      expect((await bad.json()).message, query).toContain(param);
    }
  });
});
