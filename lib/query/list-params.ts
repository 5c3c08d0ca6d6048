import { correctListParams, DEFAULT_LIMIT, DEFAULT_PAGE, type ListParams } from '@/lib/api/params';

/**
 * The table's URL state (`page`, `limit`) with the server page's rules: invalid
 * values read as the nearest valid state (proxy.ts has already redirected them).
 */
export function listParamsFrom(search: { get(name: string): string | null }): ListParams {
  return correctListParams({ page: search.get('page') ?? undefined, limit: search.get('limit') ?? undefined });
}

/** The canonical `/collections` URL for a state: defaults left out, other query parameters kept. */
export function collectionsHref(params: ListParams, search?: URLSearchParams): string {
  const query = new URLSearchParams(search);
  query.delete('page');
  query.delete('limit');
  if (params.page !== DEFAULT_PAGE) query.set('page', String(params.page));
  if (params.limit !== DEFAULT_LIMIT) query.set('limit', String(params.limit));
  const q = query.toString();
  return q ? `/collections?${q}` : '/collections';
}

/**
 * The corrected `/collections` URL when the query holds an invalid, repeated
 * or off-menu page/limit; null when it is already valid.
 */
export function correctedCollectionsUrl(search: URLSearchParams): string | null {
  const raw = { page: search.getAll('page'), limit: search.getAll('limit') };
  const first = (values: string[]) => (values.length ? values[0] : undefined);
  const params = correctListParams({ page: first(raw.page), limit: first(raw.limit) });
  const bad = (['page', 'limit'] as const).some((key) => raw[key].length > 1 || (raw[key].length === 1 && raw[key][0] !== String(params[key])));
  if (!bad) return null;
  const rest = new URLSearchParams(search);
  rest.delete('page');
  rest.delete('limit');
  rest.set('page', String(params.page));
  rest.set('limit', String(params.limit));
  return `/collections?${rest.toString()}`;
}
