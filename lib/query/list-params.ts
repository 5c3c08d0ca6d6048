import { createParser, createSerializer } from 'nuqs/server';
import { correctListParams, DEFAULT_LIMIT, DEFAULT_PAGE } from '@/lib/api/params';

/**
 * The table's URL state (`page`, `limit`), one parser for the server page and
 * the client hooks. Invalid values parse to the nearest valid state, which the
 * server page then writes back into the URL.
 */
const page = createParser({
  parse: (raw) => correctListParams({ page: raw }).page,
  serialize: String,
}).withDefault(DEFAULT_PAGE);

const limit = createParser({
  parse: (raw) => correctListParams({ limit: raw }).limit,
  serialize: String,
}).withDefault(DEFAULT_LIMIT);

export const listParsers = { page, limit };

export const serializeListParams = createSerializer(listParsers);

/** The canonical `/collections` URL for a state (defaults left out). */
export function collectionsHref(params: { page: number; limit: number }): string {
  return `/collections${serializeListParams(params)}`;
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
