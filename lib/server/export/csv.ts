import 'server-only';
import { stringify } from 'csv-stringify/sync';
import type { CollectionSummary } from '@/lib/api/summary';
import { formatAmount } from '@/lib/format/money';

/**
 * The export's CSV (contract section 8): RFC 4180 (every record ends in CRLF;
 * a cell holding a comma, a quote or a line break is quoted, quotes doubled),
 * UTF-8 with a byte-order mark so spreadsheets read it as UTF-8, and no cell a
 * spreadsheet would run as a formula.
 */
/** A collection summary whose contact may also carry e-mail and phone ("Include contact details"). */
export type ExportRecord = Omit<CollectionSummary, 'contact' | 'payable' | 'followUp'> & {
  contact: { firstName: string; lastName: string; email?: string; phone?: string };
};

export type CsvOptions = {
  /** Adds `contact_email` and `contact_phone` after `contact_last_name`. */
  contacts: boolean;
  minorUnits: boolean;
};

export function csvColumns(contacts: boolean): string[] {
  return [
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
    ...(contacts ? ['contact_email', 'contact_phone'] : []),
    'line_item_count',
    'as_of',
  ];
}

/**
 * OWASP's defence against CSV injection: a cell starting with `=`, `+`, `-`, `@`, tab or carriage
 * return is prefixed with `'`, so a spreadsheet shows it as text instead of running it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
export const neutralise = (cell: string): string => (FORMULA_START.test(cell) ? `'${cell}` : cell);

/** ISO 8601 UTC, whatever offset the upstream wrote (the index's times already are: kept as they are). */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const utc = (value: string | null) => {
  if (!value) return '';
  if (ISO_UTC.test(value)) return value;
  const at = Date.parse(value);
  return Number.isNaN(at) ? value : new Date(at).toISOString();
};

function cells(r: ExportRecord, asOf: string, options: CsvOptions): string[] {
  return [
    r.id,
    r.reference,
    r.status,
    r.type,
    String(r.amount.value),
    r.amount.currency,
    formatAmount(r.amount, { minorUnits: options.minorUnits }),
    utc(r.createdAt),
    utc(r.updatedAt),
    utc(r.completedAt),
    r.contact.firstName,
    r.contact.lastName,
    ...(options.contacts ? [r.contact.email ?? '', r.contact.phone ?? ''] : []),
    String(r.lineItemCount),
    asOf,
  ].map(neutralise);
}

// A cell holding a line break of any kind (CR, LF or both) is quoted, not only one holding CRLF.
const STRINGIFY = { record_delimiter: '\r\n', quote_record_delimiter: true } as const;

/** The header line, after the byte-order mark. */
export const csvHeader = (options: Pick<CsvOptions, 'contacts'>) =>
  `\ufeff${stringify([csvColumns(options.contacts)], STRINGIFY)}`;

/** Records as CSV lines, each ending in CRLF. */
export const csvRows = (records: ExportRecord[], asOf: string, options: CsvOptions) =>
  stringify(
    records.map((r) => cells(r, asOf, options)),
    STRINGIFY,
  );

/** `collections-20261123T120501Z.csv`: the UTC time, with nothing a file system could refuse. */
export const exportFileName = (now: Date) =>
  `collections-${now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '')}.csv`;
