import { isTagName, TAG_NAME_MAX } from './tag-names';
import { holdsControl } from './control-characters';
import { isContactId } from './ids';

/**
 * The list's URL state (contract sections 1 and 5): one schema, read in two
 * modes. Strict, for the dashboard's API and the sandbox: any bad or repeated
 * value is an error naming the parameter. Corrective, for the pages, proxy.ts
 * and the browser: whatever the URL holds reads as the closest valid state.
 * One function writes the state back into a query string.
 *
 * Plain TypeScript, not zod: this module ships to the browser, where zod would
 * cost about 32 KiB of first-load JS. Each parameter is one field of the
 * schema, so filters and sort join as fields, not as new parsers.
 */
export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** Anything with `getAll`: URLSearchParams, Next's ReadonlyURLSearchParams. */
export type SearchLike = { getAll(name: string): string[] };

/** What a strict parse returns for a value that breaks the rule. */
export const INVALID: unique symbol = Symbol('invalid');

/** One URL parameter: its default, its strict rule and its correction. */
export type Field<T> = {
  fallback: T;
  /** The rule, as the 400's message says it. */
  rule: string;
  /** Strict: the value, or INVALID when `raw` breaks the rule. */
  parse(raw: string): T | typeof INVALID;
  /** Corrective: the closest valid value to whatever `raw` is. */
  correct(raw: string): T;
  /** Whether a typed value obeys the rule (for values that never were text). */
  valid(value: T): boolean;
  format(value: T): string;
  /**
   * Given any number of times (`tag=a&tag=b`): its values are read as one comma-joined list, and written back
   * one parameter each.
   */
  repeatable?: true;
};

export type Schema = Record<string, Field<unknown>>;
export type StateOf<S extends Schema> = { [K in keyof S]: S[K] extends Field<infer T> ? T : never };

/** Plain decimal digits, no sign, no leading zero, no spaces, no exponent. */
const POSITIVE_INT = /^[1-9][0-9]{0,15}$/;

export function nearestPageSize(n: number): number {
  if (!Number.isFinite(n) || n < 1) return DEFAULT_LIMIT;
  let best: number = PAGE_SIZES[0];
  for (const size of PAGE_SIZES) if (Math.abs(size - n) < Math.abs(best - n)) best = size;
  return best;
}

function wholeNumber(options: {
  max: number;
  fallback: number;
  rule: string;
  snap?: (n: number) => number;
}): Field<number> {
  const valid = (n: number) => Number.isSafeInteger(n) && n >= 1 && n <= options.max;
  return {
    fallback: options.fallback,
    rule: options.rule,
    parse: (raw) => {
      const n = POSITIVE_INT.test(raw) ? Number(raw) : NaN;
      return valid(n) ? n : INVALID;
    },
    correct: (raw) => {
      const text = raw.trim();
      if (options.snap) return /^\d{1,16}$/.test(text) ? options.snap(Number(text)) : options.fallback;
      const n = POSITIVE_INT.test(text) ? Number(text) : NaN;
      return valid(n) ? n : options.fallback;
    },
    valid,
    format: String,
  };
}

export const pageField = wholeNumber({
  max: Number.MAX_SAFE_INTEGER,
  fallback: DEFAULT_PAGE,
  rule: 'page must be a whole number, 1 or more',
});
// The pages offer a menu of sizes, so a correction snaps to the nearest one; the API takes any size in range.
export const limitField = wholeNumber({
  max: MAX_LIMIT,
  fallback: DEFAULT_LIMIT,
  rule: `limit must be a whole number from 1 to ${MAX_LIMIT}`,
  snap: nearestPageSize,
});

/** Optional text parameters: absent (undefined) unless the URL gives a valid value. */
function optional<T>(
  rule: string,
  parse: (raw: string) => T | typeof INVALID,
  format: (value: T) => string,
): Field<T | undefined> {
  return {
    fallback: undefined,
    rule,
    parse,
    correct: (raw) => {
      const value = parse(raw.trim());
      return value === INVALID ? undefined : value;
    },
    valid: (value) => value === undefined || parse(format(value)) !== INVALID,
    format: (value) => (value === undefined ? '' : format(value)),
  };
}

/** A comma-separated list of exact values (status, currency): open sets, compared as upstream spells them. */
function valueList(name: string): Field<string[] | undefined> {
  return optional(
    `${name} must be one value or a comma-separated list of up to 20 values`,
    (raw) => {
      const values = [...new Set(raw.split(',').map((v) => v.trim()))];
      // No value holds a control character: the index writes none, and PostgreSQL cannot compare a NUL.
      return values.length <= 20 && values.every((v) => v.length > 0 && v.length <= 64 && !holdsControl(v))
        ? values
        : INVALID;
    },
    (values) => values.join(','),
  );
}

/** Tag names (section 16), any of them: repeatable, or comma-separated; each a tag name's rule. */
export const tagField: Field<string[] | undefined> = {
  ...optional(
    `tag must be up to 20 tag names, each 1 to ${TAG_NAME_MAX} letters, digits, - or _`,
    (raw) => {
      const values = [...new Set(raw.split(',').map((v) => v.trim()))];
      return values.length <= 20 && values.every((v) => isTagName(v)) ? values : INVALID;
    },
    (values) => values.join(','),
  ),
  repeatable: true,
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
function isCalendarDate(raw: string): boolean {
  const m = DATE.exec(raw);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === raw;
}
const day = (name: string) =>
  optional(`${name} must be a date as YYYY-MM-DD`, (raw) => (isCalendarDate(raw) ? raw : INVALID), String);

const AMOUNT = /^-?(0|[1-9][0-9]{0,15})$/;
/** A hand-typed amount in a URL (`1,000,000`, `NGN 500 000`, `₦5,000`): its grouping, symbol and code dropped. */
const handTyped = (raw: string) =>
  raw
    .trim()
    .replace(/^[A-Za-z]{3}\s*|\s*[A-Za-z]{3}$/g, '')
    .replace(/\p{Sc}/gu, '')
    .replace(/[\s\u00a0\u202f',_]/g, '');
const amount = (name: string): Field<number | undefined> => {
  const field = optional(
    `${name} must be a whole number`,
    (raw) => (AMOUNT.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : INVALID),
    String,
  );
  // Strict for the API; a page's URL typed by hand is corrected to the API's integer form.
  return { ...field, correct: (raw) => field.correct(handTyped(raw)) };
};

export const SORTS = ['-createdAt', 'createdAt', '-amount', 'amount', '-updatedAt', 'updatedAt'] as const;
export type Sort = (typeof SORTS)[number];
export const DEFAULT_SORT: Sort = '-createdAt';
const sortField: Field<Sort> = {
  fallback: DEFAULT_SORT,
  rule: `sort must be one of ${SORTS.join(', ')}`,
  parse: (raw) => ((SORTS as readonly string[]).includes(raw) ? (raw as Sort) : INVALID),
  correct: (raw) => ((SORTS as readonly string[]).includes(raw.trim()) ? (raw.trim() as Sort) : DEFAULT_SORT),
  valid: (value) => SORTS.includes(value),
  format: String,
};

export const MAX_QUERY = 200;
/** Control characters (a pasted tab or line break, a NUL) read as spaces: no store is asked for them. */
const queryText = (raw: string) => raw.replace(/\p{Cc}+/gu, ' ').trim();
const queryField = optional(
  `q must be 1 to ${MAX_QUERY} characters`,
  (raw) => {
    const text = queryText(raw);
    return text.length >= 1 && raw.length <= MAX_QUERY ? text : INVALID;
  },
  String,
);

/** A contact's id as the upstream gives it (contract section 14: `contact_` and 1 to 128 of A–Z a–z 0–9 _ -). */
const contactField = optional(
  'contact must be a contact id: contact_ followed by 1 to 128 letters, digits, _ or -',
  (raw) => (isContactId(raw) ? raw : INVALID),
  String,
);

/** A status change (contract section 14, the Overview's Changes): `from>to`, each a status as the API spells it. */
export type StatusChange = { from: string; to: string };
const STATUS_TEXT = /^[^>,\s\p{Cc}][^>,\p{Cc}]{0,63}$/u;
const changeField = optional<StatusChange>(
  'change must be a status change written from>to, each status 1 to 64 characters',
  (raw) => {
    const [from, to, ...rest] = raw.split('>');
    return !rest.length && from !== undefined && to !== undefined && STATUS_TEXT.test(from) && STATUS_TEXT.test(to)
      ? { from, to }
      : INVALID;
  },
  (value) => `${value.from}>${value.to}`,
);
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{3})?)?Z$/;
const instantField = optional(
  'changedSince must be a UTC time as YYYY-MM-DDTHH:MMZ (seconds optional)',
  // A real day and time: Date.parse rolls 30 February over to March, the calendar check does not.
  (raw) => (INSTANT.test(raw) && isCalendarDate(raw.slice(0, 10)) && !Number.isNaN(Date.parse(raw)) ? raw : INVALID),
  String,
);

/** What the upstream itself takes: page and limit. The sandbox parses with this. */
export const pagingSchema = { page: pageField, limit: limitField } satisfies Schema;
/** Written even at their defaults where a reader should see them (upstream URLs, corrections). */
export const PAGING = ['page', 'limit'] as const;

/** The index's filters and sort (contract section 7); any of them set serves the list from the index. */
export const filterSchema = {
  status: valueList('status'),
  currency: valueList('currency'),
  createdFrom: day('createdFrom'),
  createdTo: day('createdTo'),
  completedFrom: day('completedFrom'),
  completedTo: day('completedTo'),
  amountMin: amount('amountMin'),
  amountMax: amount('amountMax'),
  sort: sortField,
  q: queryField,
  // One contact's collections (its page, `/contacts/{id}`, lists them with this).
  contact: contactField,
  // Collections whose status the index saw change so (the Overview's Changes), since a time.
  change: changeField,
  changedSince: instantField,
  // Collections holding any of these tags (section 16).
  tag: tagField,
} satisfies Schema;

/** The collections list's URL state. */
export const listStateSchema = { ...pagingSchema, ...filterSchema } satisfies Schema;
/** `/search` and `/api/search`: the query and its pages. */
export const searchStateSchema = { q: queryField, ...pagingSchema } satisfies Schema;

export type Paging = StateOf<typeof pagingSchema>;
export type Filters = StateOf<typeof filterSchema>;
export type ListState = StateOf<typeof listStateSchema>;
export type SearchState = StateOf<typeof searchStateSchema>;

/** Whether a list state asks the index (a filter, a search or a sort other than newest first). */
export function isIndexed(state: Filters): boolean {
  return (Object.keys(filterSchema) as (keyof Filters)[]).some(
    (name) =>
      filterSchema[name].format(state[name] as never) !==
      filterSchema[name].format(filterSchema[name].fallback as never),
  );
}

/** Rules across parameters: a range must not run backwards. */
function crossCheck(state: Filters): { param: string; message: string } | null {
  if (state.amountMin !== undefined && state.amountMax !== undefined && state.amountMin > state.amountMax)
    return { param: 'amountMin', message: 'amountMin must not be more than amountMax' };
  if (state.createdFrom && state.createdTo && state.createdFrom > state.createdTo)
    return { param: 'createdFrom', message: 'createdFrom must not be after createdTo' };
  if (state.completedFrom && state.completedTo && state.completedFrom > state.completedTo)
    return { param: 'completedFrom', message: 'completedFrom must not be after completedTo' };
  return null;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; param: string; message: string };

/** Every parameter at its default: the state of a bare URL. */
export function defaults<S extends Schema>(schema: S): StateOf<S> {
  return Object.fromEntries(Object.entries(schema).map(([name, field]) => [name, field.fallback])) as StateOf<S>;
}

/** Strict mode: every parameter given at most once and valid, else the first problem named. */
export function parseState<S extends Schema>(schema: S, search: SearchLike): ParseResult<StateOf<S>> {
  const value: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema)) {
    const given = search.getAll(name);
    const all = field.repeatable && given.length > 1 ? [given.join(',')] : given;
    if (all.length > 1) return { ok: false, param: name, message: `Give ${name} only once` };
    if (all.length === 0) {
      value[name] = field.fallback;
      continue;
    }
    const parsed = field.parse(all[0]!);
    if (parsed === INVALID) return { ok: false, param: name, message: field.rule };
    value[name] = parsed;
  }
  return { ok: true, value: value as StateOf<S> };
}

/** Corrective mode: the closest valid state, and whether the URL said anything else. */
export function correctState<S extends Schema>(schema: S, search: SearchLike): { value: StateOf<S>; changed: boolean } {
  const value: Record<string, unknown> = {};
  let changed = false;
  for (const [name, field] of Object.entries(schema)) {
    const given = search.getAll(name);
    const all = field.repeatable && given.length > 1 ? [given.join(',')] : given;
    value[name] = all.length ? field.correct(all[0]!) : field.fallback;
    if (all.length > 1 || (all.length === 1 && all[0] !== field.format(value[name]))) changed = true;
  }
  return { value: value as StateOf<S>, changed };
}

/** Whether typed values (never text) obey the schema: the upstream client's last check. */
export function isValidState<S extends Schema>(schema: S, state: StateOf<S>): boolean {
  return Object.entries(schema).every(([name, field]) => field.valid((state as Record<string, unknown>)[name]));
}

/**
 * The one writer of list query strings. Parameters of the schema are replaced;
 * others in `keep` stay where they were. Defaults are left out, unless
 * `explicit` (a correction shows the user every value it chose).
 */
export function stateQuery<S extends Schema>(
  schema: S,
  state: StateOf<S>,
  options: { keep?: URLSearchParams; explicit?: readonly string[] } = {},
): string {
  const query = new URLSearchParams(options.keep);
  for (const name of Object.keys(schema)) query.delete(name);
  for (const [name, field] of Object.entries(schema)) {
    const v = (state as Record<string, unknown>)[name];
    const text = field.format(v);
    // An absent optional value formats as '' and is never written.
    if (text !== '' && (options.explicit?.includes(name) || text !== field.format(field.fallback))) {
      if (field.repeatable) for (const one of text.split(',')) query.append(name, one);
      else query.set(name, text);
    }
  }
  return query.toString();
}

/** Next's `searchParams` prop as URLSearchParams, repeats kept. */
export function toSearchParams(record: Record<string, string | string[] | undefined>): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(record)) for (const v of [value ?? []].flat()) search.append(name, v);
  return search;
}

// The collections list, by name: what pages, proxy.ts, the browser and /api call.

export function parseListState(search: SearchLike): ParseResult<ListState> {
  const parsed = parseState(listStateSchema, search);
  const problem = parsed.ok ? crossCheck(parsed.value) : null;
  return problem ? { ok: false, ...problem } : parsed;
}

/** The list state a page shows: corrected, and a backwards range turned the right way round. */
function correctList(search: SearchLike): { value: ListState; changed: boolean } {
  const { value, changed } = correctState(listStateSchema, search);
  if (!crossCheck(value)) return { value, changed };
  const swapped = { ...value };
  if (value.amountMin !== undefined && value.amountMax !== undefined && value.amountMin > value.amountMax)
    [swapped.amountMin, swapped.amountMax] = [value.amountMax, value.amountMin];
  if (value.createdFrom && value.createdTo && value.createdFrom > value.createdTo)
    [swapped.createdFrom, swapped.createdTo] = [value.createdTo, value.createdFrom];
  if (value.completedFrom && value.completedTo && value.completedFrom > value.completedTo)
    [swapped.completedFrom, swapped.completedTo] = [value.completedTo, value.completedFrom];
  return { value: swapped, changed: true };
}

export const readListState = (search: SearchLike): ListState => correctList(search).value;
export const parseSearchState = (search: SearchLike) => parseState(searchStateSchema, search);
export const readSearchState = (search: SearchLike): SearchState => correctState(searchStateSchema, search).value;

/** The canonical `/collections` URL for a state; other query parameters in `keep` are kept. */
export function collectionsHref(state: ListState, keep?: URLSearchParams): string {
  const q = stateQuery(listStateSchema, state, { keep });
  return q ? `/collections?${q}` : '/collections';
}

/** The corrected `/collections` URL when the query holds an invalid, repeated or off-menu value; else null. */
export function correctedCollectionsUrl(search: URLSearchParams): string | null {
  const { value, changed } = correctList(search);
  return changed ? `/collections?${stateQuery(listStateSchema, value, { keep: search, explicit: PAGING })}` : null;
}

/** Number of the last page for a total; 1 for an empty set. */
export function lastPage(count: number, limit: number): number {
  return Math.max(1, Math.ceil(count / limit));
}

/**
 * The list's addresses: the collections list (filters, sort, a search within), search results, and a
 * contact's page (the list of one contact's collections: its id is the path's, never a parameter).
 */
export type ListPath = '/collections' | '/search' | `/contacts/${string}`;

/** A contact page's path for a contact id. */
export const contactPath = (id: string): ListPath => `/contacts/${encodeURIComponent(id)}`;
/** The contact id of a contact page's path; null for the other lists. */
export function contactOfPath(path: ListPath): string | null {
  if (!path.startsWith('/contacts/')) return null;
  const id = decodeURIComponent(path.slice('/contacts/'.length));
  return isContactId(id) ? id : null;
}

/** A view's state from its URL: `/search` reads q, page and limit, the rest is the list's defaults. */
export function readViewState(path: ListPath, search: SearchLike): ListState {
  if (path === '/collections') return readListState(search);
  const contact = contactOfPath(path);
  if (contact) return { ...readListState(search), contact };
  const { q, page, limit } = readSearchState(search);
  return { ...defaults(listStateSchema), q, page, limit };
}

/** A view's canonical URL (other query parameters in `keep` are kept). */
export function viewHref(path: ListPath, state: ListState, keep?: URLSearchParams): string {
  if (path === '/collections') return collectionsHref(state, keep);
  if (contactOfPath(path)) {
    const q = stateQuery(listStateSchema, { ...state, contact: undefined }, { keep });
    return q ? `${path}?${q}` : path;
  }
  return `/search?${stateQuery(searchStateSchema, { q: state.q, page: state.page, limit: state.limit }, { keep })}`;
}

/** A view's query without page and limit: the filters and the search, which a record's Previous / Next keep. */
export function viewQuery(path: ListPath, state: ListState): string {
  return viewHref(path, { ...state, page: DEFAULT_PAGE, limit: DEFAULT_LIMIT }).split('?')[1] ?? '';
}
