/**
 * The one list's columns (contract section 13): every column an id, a label and a width, in the order a
 * user chose. What a user shows is remembered in a cookie (read by the server, so the first paint is
 * right) and kept in a saved view; anything unreadable there falls back to the defaults, and a list that
 * names a column that no longer exists opens with the rest and says what was dropped.
 */
export const COLUMN_IDS = [
  'reference',
  'contact',
  'email',
  'phone',
  'amount',
  'status',
  'methods',
  'followUp',
  'created',
  'updated',
  'completed',
  'lineItems',
  'type',
  'tags',
  'id',
] as const;

export type ListColumnId = (typeof COLUMN_IDS)[number];

export const COLUMN_LABEL: Record<ListColumnId, string> = {
  reference: 'Reference',
  contact: 'Contact',
  email: 'E-mail',
  phone: 'Phone',
  amount: 'Amount',
  status: 'Status',
  methods: 'Methods',
  followUp: 'Follow-up',
  created: 'Created',
  updated: 'Updated',
  completed: 'Completed',
  lineItems: 'Line items',
  type: 'Type',
  tags: 'Tags',
  id: 'ID',
};

/** What a list shows until its user chooses: the columns of every list before columns could be chosen. */
export const DEFAULT_COLUMNS: readonly ListColumnId[] = [
  'reference',
  'contact',
  'amount',
  'status',
  'methods',
  'followUp',
  'created',
  'id',
];

export const COLUMNS_COOKIE = 'cc-columns';
const YEAR_S = 365 * 86_400;
const isColumn = (value: string): value is ListColumnId => (COLUMN_IDS as readonly string[]).includes(value);

/**
 * A list of columns as stored (a view's, or the cookie's ids joined by commas): the known ids in their
 * order, each once, and the names that were dropped (unknown, or repeated). Null when nothing of it can
 * be shown (empty, not a list of names, absurdly long): the caller uses the defaults.
 */
export function readColumns(stored: unknown): { columns: ListColumnId[]; dropped: string[] } | null {
  const names =
    typeof stored === 'string'
      ? stored.length <= 400
        ? stored.split(',').filter(Boolean)
        : null
      : Array.isArray(stored) && stored.length <= 50 && stored.every((n) => typeof n === 'string')
        ? (stored as string[])
        : null;
  if (!names) return null;
  const columns: ListColumnId[] = [];
  const dropped: string[] = [];
  for (const name of names) {
    if (isColumn(name) && !columns.includes(name)) columns.push(name);
    else dropped.push(name.slice(0, 40));
  }
  return columns.length ? { columns, dropped } : null;
}

/** The columns a browser's cookie asks for; a tampered or unreadable one is ignored (the defaults). */
export function columnsFromCookie(raw: string | undefined | null): ListColumnId[] {
  if (!raw) return [...DEFAULT_COLUMNS];
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return [...DEFAULT_COLUMNS];
  }
  const read = readColumns(decoded);
  return read && !read.dropped.length ? read.columns : [...DEFAULT_COLUMNS];
}

/** The `document.cookie` string that remembers these columns (the defaults forget the choice). */
export function columnsCookie(columns: readonly ListColumnId[]): string {
  const same = columns.length === DEFAULT_COLUMNS.length && columns.every((c, i) => c === DEFAULT_COLUMNS[i]);
  return same
    ? `${COLUMNS_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`
    : `${COLUMNS_COOKIE}=${encodeURIComponent(columns.join(','))}; Path=/; Max-Age=${YEAR_S}; SameSite=Lax`;
}

/** The columns with one moved a place up (-1) or down (+1); unchanged at either end. */
export function moveColumn(columns: readonly ListColumnId[], id: ListColumnId, by: -1 | 1): ListColumnId[] {
  const from = columns.indexOf(id);
  const to = from + by;
  if (from < 0 || to < 0 || to >= columns.length) return [...columns];
  const next = [...columns];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}

/** The columns with one shown (at its place in the full order among those shown) or hidden (never the last). */
export function toggleColumn(columns: readonly ListColumnId[], id: ListColumnId): ListColumnId[] {
  if (columns.includes(id)) return columns.length > 1 ? columns.filter((c) => c !== id) : [...columns];
  const at = columns.findIndex((c) => COLUMN_IDS.indexOf(c) > COLUMN_IDS.indexOf(id));
  return at < 0 ? [...columns, id] : [...columns.slice(0, at), id, ...columns.slice(at)];
}
