import { z } from 'zod';
import { errorMessage } from './error-codes';
import { isCollectionId, isProviderId } from './ids';
import { parseListState } from './list-state';

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

/** The list's query, by the list-state schema's strict mode. */
export const listQuery = z.instanceof(URLSearchParams).transform((search, ctx) => {
  const parsed = parseListState(search);
  if (parsed.ok) return parsed.value;
  ctx.addIssue({
    code: 'custom',
    path: [parsed.param],
    message: `${errorMessage('bad_request', 'collections')}: ${parsed.message}`,
  });
  return z.NEVER;
});
