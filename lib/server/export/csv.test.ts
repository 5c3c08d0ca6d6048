import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvColumns, csvHeader, csvRows, exportFileName, neutralise, type ExportRecord } from './csv';

const record = (overrides: Partial<ExportRecord> = {}): ExportRecord => ({
  id: 'pay_1',
  reference: 'INV-1',
  status: 'pending',
  type: 'integrated',
  amount: { value: 250000, currency: 'NGN' },
  createdAt: '2026-11-20T16:45:12.345Z',
  updatedAt: '2026-11-20T17:45:12.345+01:00',
  completedAt: null,
  contact: { firstName: 'Zoë', lastName: 'O’Brien', email: 'zoe@example.com', phone: '+234 801 234 5678' },
  lineItemCount: 2,
  ...overrides,
});

const read = (text: string) => parse(text, { bom: true, relax_column_count: false }) as string[][];

describe('CSV export', () => {
  it('writes the contract columns, contact details only when asked', () => {
    expect(csvColumns(false)).toContain('contact_last_name');
    expect(csvColumns(false)).not.toContain('contact_email');
    const withContacts = csvColumns(true);
    expect(withContacts.slice(10, 14)).toEqual([
      'contact_first_name',
      'contact_last_name',
      'contact_email',
      'contact_phone',
    ]);
    expect(withContacts.at(-1)).toBe('as_of');
  });

  it('a saved view’s export holds its columns in its order, contact details only when asked', () => {
    const columns = ['status', 'phone', 'amount', 'methods', 'followUp', 'contact', 'email', 'id'] as const;
    const asOf = '2026-11-23T12:00:00.000Z';
    const row = record({
      methods: ['payment_link', 'virtual_account'],
      followUp: { enabled: true, channels: ['sms'] },
    });
    const without = read(
      csvHeader({ contacts: false, columns }) + csvRows([row], asOf, { contacts: false, minorUnits: false, columns }),
    );
    expect(without).toEqual([
      [
        'status',
        'amount_value',
        'currency',
        'amount_formatted',
        'payable_methods',
        'follow_up_enabled',
        'follow_up_channels',
        'contact_first_name',
        'contact_last_name',
        'id',
        'as_of',
      ],
      [
        'pending',
        '250000',
        'NGN',
        'NGN 250,000',
        'payment_link;virtual_account',
        'true',
        'sms',
        'Zoë',
        'O’Brien',
        'pay_1',
        asOf,
      ],
    ]);
    const withContacts = read(
      csvHeader({ contacts: true, columns }) + csvRows([row], asOf, { contacts: true, minorUnits: false, columns }),
    );
    expect(withContacts[0]!.slice(0, 2)).toEqual(['status', 'contact_phone']);
    expect(withContacts[0]).toContain('contact_email');
    // The formula guard holds in every column: the phone's + is prefixed.
    expect(withContacts[1]![1]).toBe("'+234 801 234 5678");
    // A record without methods or follow-up (kept before them) writes empty cells, never "null".
    expect(
      read(csvRows([record()], asOf, { contacts: false, minorUnits: false, columns: ['methods', 'followUp'] })),
    ).toEqual([['', '', '', asOf]]);
  });

  it('is UTF-8 with a byte-order mark, CRLF line ends, ISO 8601 UTC times and the raw and formatted amount', () => {
    const text =
      csvHeader({ contacts: true }) +
      csvRows([record()], '2026-11-23T12:00:00.000Z', { contacts: true, minorUnits: false });
    expect(text.startsWith('\ufeffid,reference,')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, row] = read(text);
    const byName = Object.fromEntries(header!.map((h, i) => [h, row![i]]));
    expect(byName).toMatchObject({
      amount_value: '250000',
      currency: 'NGN',
      amount_formatted: 'NGN 250,000',
      updated_at: '2026-11-20T16:45:12.345Z',
      completed_at: '',
      contact_first_name: 'Zoë',
      contact_last_name: 'O’Brien',
      contact_phone: '+234 801 234 5678'.replace(/^\+/, "'+"),
      as_of: '2026-11-23T12:00:00.000Z',
    });
  });

  it('quotes commas, quotes and line breaks as RFC 4180 says', () => {
    const reference = 'A, "quoted"\r\nand more';
    const text = csvRows([record({ reference })], '', { contacts: false, minorUnits: false });
    expect(text).toContain('"A, ""quoted""\r\nand more"');
    expect(read(text)[0]![1]).toBe(reference);
  });

  it.each(['line\nfeed', 'carriage\rreturn'])(
    'quotes a cell with a lone line break (%j), so it stays one cell',
    (reference) => {
      const text = csvRows([record({ reference })], '', { contacts: false, minorUnits: false });
      expect(text).toContain(`"${reference}"`);
      expect(read(text)[0]![1]).toBe(reference);
    },
  );

  it.each(['=1+2', '+SUM(1,1)', '-2+3', '@SUM(1)', '\t=1', '\r=1'])('neutralises a cell starting %j', (cell) => {
    expect(neutralise(cell)).toBe(`'${cell}`);
    const text = csvRows([record({ reference: cell, contact: { firstName: cell, lastName: cell } })], '', {
      contacts: false,
      minorUnits: false,
    });
    const row = read(text)[0]!;
    expect(row[1]).toBe(`'${cell}`);
    expect(row[10]).toBe(`'${cell}`);
    expect(row[11]).toBe(`'${cell}`);
  });

  it('leaves other cells as they are', () => {
    for (const cell of ['INV-1', 'a=b', ' =1', '', 'Ада']) expect(neutralise(cell)).toBe(cell);
  });

  it('for programs: every cell as it is, no byte-order mark, the file named so', () => {
    const hostile = record({
      reference: '=HYPERLINK("x")',
      contact: { firstName: '@me', lastName: '-1', phone: '+234 801 234 5678' },
    });
    const text =
      csvHeader({ contacts: true, plain: true }) +
      csvRows([hostile], '2026-11-23T12:00:00.000Z', { contacts: true, minorUnits: false, plain: true });
    expect(text.startsWith('id,reference,')).toBe(true);
    const [, row] = read(text);
    expect(row).toContain('=HYPERLINK("x")');
    expect(row).toContain('@me');
    expect(row).toContain('-1');
    expect(row).toContain('+234 801 234 5678');
    // For spreadsheets, the same record guarded.
    const guarded = read(csvRows([hostile], '2026-11-23T12:00:00.000Z', { contacts: true, minorUnits: false }));
    expect(guarded[0]).toContain('\'=HYPERLINK("x")');
    expect(guarded[0]).toContain("'+234 801 234 5678");
    expect(exportFileName(new Date('2026-11-23T12:05:01.123Z'), true)).toBe(
      'collections-20261123T120501Z-for-programs.csv',
    );
  });

  it('names the file by the UTC time', () => {
    expect(exportFileName(new Date('2026-11-23T12:05:01.123Z'))).toBe('collections-20261123T120501Z.csv');
  });
});
