import 'server-only';
import { stringify } from 'csv-stringify/sync';
import type { CollectionSummary } from '@/lib/api/summary';
import type { ListColumnId } from '@/lib/api/columns';
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
  /** The payable methods and follow-up, for a view that shows those columns. */
  methods?: string[] | null;
  followUp?: { enabled: boolean; channels: string[] } | null;
  /** Its tags' names (section 16), for a view that shows the Tags column. */
  tags?: string[];
};

export type CsvOptions = {
  /** Adds `contact_email` and `contact_phone` after `contact_last_name`. */
  contacts: boolean;
  minorUnits: boolean;
  /**
   * A saved view's columns (contract section 13), in its order: the file holds those, each as the cells
   * below, then `as_of`. Unset: the contract's header of section 8.
   */
  columns?: readonly ListColumnId[];
  /**
   * "For programs" (`format=plain`): RFC 4180 with every cell as it is and no byte-order mark. The default,
   * "for spreadsheets", guards formula cells and starts with the mark.
   */
  plain?: boolean;
};

/** Each list column as the export's cells: its header names and their values. */
const COLUMN_CELLS: Record<ListColumnId, { names: string[]; cells: (r: ExportRecord, o: CsvOptions) => string[] }> = {
  reference: { names: ['reference'], cells: (r) => [r.reference] },
  contact: {
    names: ['contact_first_name', 'contact_last_name'],
    cells: (r) => [r.contact.firstName, r.contact.lastName],
  },
  email: { names: ['contact_email'], cells: (r) => [r.contact.email ?? ''] },
  phone: { names: ['contact_phone'], cells: (r) => [r.contact.phone ?? ''] },
  amount: {
    names: ['amount_value', 'currency', 'amount_formatted'],
    cells: (r, o) => [String(r.amount.value), r.amount.currency, formatAmount(r.amount, { minorUnits: o.minorUnits })],
  },
  status: { names: ['status'], cells: (r) => [r.status] },
  methods: { names: ['payable_methods'], cells: (r) => [(r.methods ?? []).join(';')] },
  followUp: {
    names: ['follow_up_enabled', 'follow_up_channels'],
    cells: (r) => (r.followUp ? [String(r.followUp.enabled), r.followUp.channels.join(';')] : ['', '']),
  },
  created: { names: ['created_at'], cells: (r) => [utc(r.createdAt)] },
  updated: { names: ['updated_at'], cells: (r) => [utc(r.updatedAt)] },
  completed: { names: ['completed_at'], cells: (r) => [utc(r.completedAt)] },
  lineItems: { names: ['line_item_count'], cells: (r) => [String(r.lineItemCount)] },
  type: { names: ['type'], cells: (r) => [r.type] },
  tags: { names: ['tags'], cells: (r) => [(r.tags ?? []).join(';')] },
  id: { names: ['id'], cells: (r) => [r.id] },
};

/** A view's columns as the file has them: contact details only when they are exported (`contacts=1`). */
const exported = (options: Pick<CsvOptions, 'contacts' | 'columns'>) =>
  (options.columns ?? []).filter((c) => options.contacts || (c !== 'email' && c !== 'phone'));

export function csvColumns(contacts: boolean, columns?: readonly ListColumnId[]): string[] {
  if (columns) return [...exported({ contacts, columns }).flatMap((c) => COLUMN_CELLS[c].names), 'as_of'];
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
/** Cells as the file holds them: guarded for spreadsheets, as they are for programs. */
const guarded = (cells: string[], options: Pick<CsvOptions, 'plain'>) =>
  options.plain ? cells : cells.map(neutralise);

/** ISO 8601 UTC, whatever offset the upstream wrote (the index's times already are: kept as they are). */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const utc = (value: string | null) => {
  if (!value) return '';
  if (ISO_UTC.test(value)) return value;
  const at = Date.parse(value);
  return Number.isNaN(at) ? value : new Date(at).toISOString();
};

function cells(r: ExportRecord, asOf: string, options: CsvOptions): string[] {
  if (options.columns)
    return guarded([...exported(options).flatMap((c) => COLUMN_CELLS[c].cells(r, options)), asOf], options);
  const all = [
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
  ];
  return guarded(all, options);
}

// A cell holding a line break of any kind (CR, LF or both) is quoted, not only one holding CRLF.
const STRINGIFY = { record_delimiter: '\r\n', quote_record_delimiter: true } as const;

/** The header line, after the byte-order mark. */
export const csvHeader = (options: Pick<CsvOptions, 'contacts' | 'columns' | 'plain'>) =>
  `${options.plain ? '' : '\ufeff'}${stringify([csvColumns(options.contacts, options.columns)], STRINGIFY)}`;

/** Records as CSV lines, each ending in CRLF. */
export const csvRows = (records: ExportRecord[], asOf: string, options: CsvOptions) =>
  stringify(
    records.map((r) => cells(r, asOf, options)),
    STRINGIFY,
  );

/**
 * `collections-20261123T120501Z.csv`: the UTC time, with nothing a file system could refuse; a file for
 * programs says so (`collections-20261123T120501Z-for-programs.csv`).
 */
export const exportFileName = (now: Date, plain = false) =>
  `collections-${now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '')}${plain ? '-for-programs' : ''}.csv`;
