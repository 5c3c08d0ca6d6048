/**
 * Page and limit rules (contract section 1): `page` an integer ≥ 1, `limit` an
 * integer 1–100. The API rejects anything else with a 400; the pages correct
 * the URL instead. Both go through this one module so they cannot drift.
 */
export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** Plain decimal digits, no sign, no leading zero, no spaces, no exponent. */
const POSITIVE_INT = /^[1-9][0-9]{0,15}$/;

export type ListParams = { page: number; limit: number };

export type ParamResult =
  | { ok: true; value: ListParams }
  | { ok: false; message: string };

type Raw = string | string[] | null | undefined;

const RULES = {
  page: { max: Number.MAX_SAFE_INTEGER, fallback: DEFAULT_PAGE, rule: 'page must be a whole number, 1 or more' },
  limit: { max: MAX_LIMIT, fallback: DEFAULT_LIMIT, rule: `limit must be a whole number from 1 to ${MAX_LIMIT}` },
} as const;

function parsePositive(raw: Raw, name: keyof typeof RULES): number | { error: string } {
  const { max, fallback, rule } = RULES[name];
  if (raw === undefined || raw === null) return fallback;
  if (Array.isArray(raw)) return { error: `Give ${name} only once` };
  const n = POSITIVE_INT.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(n) && n <= max ? n : { error: rule };
}

/** Strict parsing for the dashboard's API: any bad or repeated value is an error. */
export function parseListParams(input: { page?: Raw; limit?: Raw }): ParamResult {
  const page = parsePositive(input.page, 'page');
  if (typeof page !== 'number') return { ok: false, message: page.error };
  const limit = parsePositive(input.limit, 'limit');
  if (typeof limit !== 'number') return { ok: false, message: limit.error };
  return { ok: true, value: { page, limit } };
}

/** Reads `page`/`limit` from URLSearchParams, keeping repeats visible to the parser. */
export function listParamsFromSearch(search: URLSearchParams): ParamResult {
  const pick = (name: string): Raw => {
    const all = search.getAll(name);
    return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
  };
  return parseListParams({ page: pick('page'), limit: pick('limit') });
}

/**
 * Lenient parsing for the pages: whatever the URL holds, the closest valid
 * state. A limit off the menu snaps to the nearest page size.
 */
export function correctListParams(input: { page?: Raw; limit?: Raw }): ListParams {
  const first = (raw: Raw) => (Array.isArray(raw) ? raw[0] : raw);
  const pageRaw = first(input.page);
  const limitRaw = first(input.limit);
  const pageNum = pageRaw && POSITIVE_INT.test(pageRaw.trim()) ? Number(pageRaw.trim()) : DEFAULT_PAGE;
  const page = Number.isSafeInteger(pageNum) ? pageNum : DEFAULT_PAGE;
  const limitNum = limitRaw && /^\d{1,16}$/.test(limitRaw.trim()) ? Number(limitRaw.trim()) : DEFAULT_LIMIT;
  const limit = nearestPageSize(limitNum);
  return { page, limit };
}

export function nearestPageSize(n: number): number {
  if (!Number.isFinite(n) || n < 1) return DEFAULT_LIMIT;
  let best: number = PAGE_SIZES[0];
  for (const size of PAGE_SIZES) if (Math.abs(size - n) < Math.abs(best - n)) best = size;
  return best;
}

/** Number of the last page for a total; 1 for an empty set. */
export function lastPage(count: number, limit: number): number {
  return Math.max(1, Math.ceil(count / limit));
}
