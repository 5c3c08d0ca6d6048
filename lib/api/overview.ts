import { holdsControl } from './control-characters';
import {
  INVALID,
  correctState,
  parseState,
  stateQuery,
  tagField,
  type Field,
  type Schema,
  type StateOf,
} from './list-state';

/**
 * The overview's URL state and answer (contract section 8). Plain TypeScript
 * like the list's state: the page's range menu reads it in the browser.
 */
export const RANGES = ['7d', '30d', '90d', 'all'] as const;
export type Range = (typeof RANGES)[number];
export const DEFAULT_RANGE: Range = '30d';
export const RANGE_LABELS: Record<Range, string> = {
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  all: 'All time',
};
/** The range menu's items (the menu is named "Range"). */
export const RANGE_SHORT: Record<Range, string> = {
  '7d': '7 days',
  '30d': '30 days',
  '90d': '90 days',
  all: 'All time',
};
/** Days a range spans, today included. */
export const RANGE_DAYS: Record<Exclude<Range, 'all'>, number> = { '7d': 7, '30d': 30, '90d': 90 };

const isRange = (raw: string): raw is Range => (RANGES as readonly string[]).includes(raw);
const rangeField: Field<Range> = {
  fallback: DEFAULT_RANGE,
  rule: `range must be one of ${RANGES.join(', ')}`,
  parse: (raw) => (isRange(raw) ? raw : INVALID),
  correct: (raw) => (isRange(raw.trim().toLowerCase()) ? (raw.trim().toLowerCase() as Range) : DEFAULT_RANGE),
  valid: isRange,
  format: String,
};

/** One currency as the list's `currency` filter spells it (1-64 characters, no comma or control character). */
const isCurrency = (raw: string) => raw.length > 0 && raw.length <= 64 && !raw.includes(',') && !holdsControl(raw);
const currencyField: Field<string | undefined> = {
  fallback: undefined,
  rule: 'currency must be one currency code of 1-64 characters, without a comma',
  parse: (raw) => (isCurrency(raw) ? raw : INVALID),
  // The page drops a currency it cannot read and shows every currency; currencies are compared as spelt.
  correct: (raw) => (isCurrency(raw.trim()) ? raw.trim() : undefined),
  valid: (value) => value === undefined || isCurrency(value),
  format: (value) => value ?? '',
};

/**
 * `range`, and `currency`: one currency's cards, status table and charts beneath the table of every
 * currency (absent: the table alone, and the API's answer covers every currency); `tag` (section 16, as the
 * list reads it): only the collections holding any of those tags, counted from their rows.
 */
export const overviewSchema = { range: rangeField, currency: currencyField, tag: tagField } satisfies Schema;
export type OverviewState = StateOf<typeof overviewSchema>;
export const parseOverviewState = (search: URLSearchParams) => parseState(overviewSchema, search);
export const correctOverviewState = (search: URLSearchParams) => correctState(overviewSchema, search);
export const overviewHref = (state: Pick<OverviewState, 'range'> & Partial<OverviewState>) => {
  const q = stateQuery(overviewSchema, { currency: undefined, tag: undefined, ...state });
  return q ? `/overview?${q}` : '/overview';
};
/** The corrected `/overview` URL when the range is unknown or repeated (other parameters kept); else null. */
export function correctedOverviewUrl(search: URLSearchParams): string | null {
  const { value, changed } = correctState(overviewSchema, search);
  return changed ? `/overview?${stateQuery(overviewSchema, value, { keep: search, explicit: ['range'] })}` : null;
}

export type Sum = { count: number; amount: number };

export type CurrencyOverview = {
  currency: string;
  /** Every status the account's collections of this currency have, whole account, most first. */
  byStatus: Array<{ status: string } & Sum>;
  /** Completed (by `completedAt`) in the range. */
  completed: Sum;
  /** The same, in the range of the same length before it; null for `all` (there is none). */
  completedPrevious: Sum | null;
  /** Of the collections created in the range, the share completed since; null when none were created. */
  completionRate: number | null;
  /** Median time from created to completed of those completed in the range (within 1 %); null when none. */
  medianTimeToCompleteMs: number | null;
  /** Collections created in the range. */
  created: number;
};

export type PerDay = {
  /** `YYYY-MM-DD`: the day, or the first day of the month or year the bucket starts. */
  date: string;
  currency: string;
  status: string;
  created: number;
  completedAmount: number;
};

/**
 * Whose `perDay` rows an overview reads: every currency's (the API), one currency's (`?currency=`: the
 * page's detail of that currency, the API's answer narrowed so), or none (the page's table alone).
 */
export type PerDayOf = 'every' | 'none' | { currency: string };

export type Overview = {
  /** Whole UTC days, both inclusive; `from` null for `all` on an empty index. */
  range: { from: string | null; to: string };
  /** The last UTC day anything was created or completed (any range); null on an empty index. */
  latestActivity: string | null;
  /**
   * The days the charts span: the range; for `all`, the first to the last day anything was created or
   * completed (an account whose activity stopped long ago is drawn where its data is, not to today).
   */
  chart: { from: string | null; to: string };
  /**
   * `day` for 7d/30d/90d; for `all`, chosen from the chart's span: `day` up to 92 days, `month` up to ten
   * years, `year` past that.
   */
  bucket: 'day' | 'month' | 'year';
  currencies: CurrencyOverview[];
  perDay: PerDay[];
  /**
   * The last 24 hours' status changes as the index saw them (contract section 14), by kind, the most first;
   * `since` (to the minute) is what each kind's link filters the list by.
   */
  changes: { since: string; kinds: { from: string; to: string; count: number }[] };
  /** The tags the figures are narrowed to (`tag=`), as asked; absent when they count every collection. */
  tag?: string[];
  asOf: string | null;
  coverage: number;
};

/**
 * A range that holds no activity: the smallest range that reaches back to the latest activity (and all
 * time), so the page can offer where the data is. Null when the range holds some, or nothing ever happened.
 */
export function rangesWithActivity(
  range: Range,
  perDay: readonly { created: number; completedAmount: number }[],
  latestActivity: string | null,
  today: string,
): Range[] | null {
  if (range === 'all' || !latestActivity || perDay.some((d) => d.created !== 0 || d.completedAmount !== 0)) return null;
  const daysAgo = Math.round(
    (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${latestActivity}T00:00:00Z`)) / 86_400_000,
  );
  const reach = (['7d', '30d', '90d'] as const).find(
    (r) => RANGE_DAYS[r] > daysAgo && RANGE_DAYS[r] > RANGE_DAYS[range],
  );
  return reach ? [reach, 'all'] : ['all'];
}

/** One account's overview in a view of every account (`/overview?account=all`): its figures, or why not. */
export type AccountOverview = {
  account: { id: string; name: string; mode: 'live' | 'test' };
  overview: Overview | null;
  error: string | null;
};
