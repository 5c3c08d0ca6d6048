import { z } from 'zod';
import { errorMessage } from './error-codes';
import { isCollectionId, isProviderId } from './ids';
import { isIndexed, parseListState, parseSearchState, type ParseResult } from './list-state';
import { parseOverviewState } from './overview';
import { parseAuditQuery } from './audit';

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

/** `/api/audit` (admins): its filters and page (lib/api/audit.ts). */
export const auditQuery = fromState(parseAuditQuery, (param) => `Invalid ${param}`);

/** `0`/`1` switches of the export, each given at most once. */
function flag(search: URLSearchParams, name: string): boolean | { message: string } {
  const all = search.getAll(name);
  if (all.length > 1) return { message: `Invalid ${name}: give ${name} only once` };
  if (all.length === 0 || all[0] === '0') return false;
  if (all[0] === '1') return true;
  return { message: `Invalid ${name}: ${name} must be 1 or 0` };
}

/**
 * `/api/export/collections.csv`: the list's parameters (every page of the view is exported, so
 * `page` and `limit` are checked and then not used), `contacts=1` and `live=1`.
 */
export const exportQuery = z.instanceof(URLSearchParams).transform((search, ctx) => {
  const parsed = parseListState(search);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', path: [parsed.param], message: `Invalid ${parsed.param}: ${parsed.message}` });
    return z.NEVER;
  }
  const contacts = flag(search, 'contacts');
  const live = flag(search, 'live');
  for (const [name, value] of [
    ['contacts', contacts],
    ['live', live],
  ] as const) {
    if (typeof value === 'object') {
      ctx.addIssue({ code: 'custom', path: [name], message: value.message });
      return z.NEVER;
    }
  }
  if (live && isIndexed(parsed.value)) {
    ctx.addIssue({
      code: 'custom',
      path: ['live'],
      message:
        'Invalid live: a live export reads the unfiltered list only; remove the filters, search and sort, or export from the index (without live=1)',
    });
    return z.NEVER;
  }
  return { ...parsed.value, contacts: contacts as boolean, live: live as boolean };
});
