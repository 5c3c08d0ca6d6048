import { z } from 'zod';
import { errorMessage } from './error-codes';
import { isCollectionId, isProviderId } from './ids';
import { parseListState, parseSearchState, type ParseResult } from './list-state';
import { parseOverviewState } from './overview';

/**
 * The dashboard API's inputs in zod, one schema per route (path parameters,
 * query). An issue's message is the 400's whole message, and its path names
 * the parameter.
 */
export const collectionIdParams = z.object({
  id: z.string().refine(isCollectionId, errorMessage('bad_request', 'collection')),
});

export const providerIdParams = z.object({
  id: z.string().refine(isProviderId, errorMessage('bad_request', 'provider')),
});

/** A strict parse as a zod transform: its problem becomes the issue, at the parameter's path. */
function fromState<T>(parse: (search: URLSearchParams) => ParseResult<T>, prefix: (param: string) => string) {
  return z.instanceof(URLSearchParams).transform((search, ctx) => {
    const parsed = parse(search);
    if (parsed.ok) return parsed.value;
    ctx.addIssue({ code: 'custom', path: [parsed.param], message: `${prefix(parsed.param)}: ${parsed.message}` });
    return z.NEVER;
  });
}

/** The list's query, by the list-state schema's strict mode. */
export const listQuery = fromState(parseListState, (param) =>
  param === 'page' || param === 'limit' ? errorMessage('bad_request', 'collections') : `Invalid ${param}`,
);

/** `/api/search`: a query of 1–200 characters, and its page. */
export const searchQuery = fromState(parseSearchState, (param) => `Invalid ${param}`).refine(
  (state) => state.q !== undefined,
  { message: 'Invalid q: q is required (1 to 200 characters)', path: ['q'] },
);

/** `/api/overview`: the range. */
export const overviewQuery = fromState(parseOverviewState, (param) => `Invalid ${param}`);
