import { queryOptions } from '@tanstack/react-query';
import type { CollectionListEnvelope } from '@/lib/api/envelopes';
import { listStateSchema, PAGING, stateQuery, type ListState } from '@/lib/api/list-state';
import { failureFrom, networkFailure } from './api-failure';
import { queryKeys } from './keys';
import { toRowPage } from './rows';

/**
 * queryOptions per endpoint. In the browser the queryFn calls the dashboard's
 * own /api; the server prefetch spreads these options and swaps in the data
 * layer, so the key is the same on both sides by construction.
 */
async function getJson<T>(path: string, signal: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { signal, headers: { Accept: 'application/json' } });
  } catch (error) {
    if (signal.aborted) throw error;
    throw networkFailure();
  }
  if (!response.ok) throw await failureFrom(response);
  return (await response.json()) as T;
}

export function collectionListOptions(state: ListState) {
  const query = stateQuery(listStateSchema, state, { explicit: PAGING });
  return queryOptions({
    queryKey: queryKeys.collectionList(state),
    queryFn: async ({ signal }) =>
      toRowPage(await getJson<CollectionListEnvelope>(`/api/collections?${query}`, signal)),
  });
}
