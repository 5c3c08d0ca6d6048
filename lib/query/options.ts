import { queryOptions } from '@tanstack/react-query';
import type { CollectionListEnvelope } from '@/lib/api/envelopes';
import {
  listStateSchema,
  PAGING,
  searchStateSchema,
  stateQuery,
  type ListPath,
  type ListState,
} from '@/lib/api/list-state';
import type { SearchHit } from '@/lib/api/summary';
import { apiGet } from './api-client';
import { queryKeys } from './keys';
import { toRowPage } from './rows';

/**
 * queryOptions per endpoint. In the browser the queryFn asks the dashboard's own /api (api-client.ts); the
 * server prefetch spreads these options and swaps in the data layer, so the key is the same on both sides by
 * construction.
 */
/**
 * A page of a collections view: the live list or the index's (filtered, sorted, searched) from
 * `/api/collections`, search results from `/api/search`. Both answer rows of the one list.
 */
export function collectionListOptions(path: ListPath, state: ListState, everyAccount = false) {
  const api =
    path === '/search'
      ? `/api/search?${stateQuery(searchStateSchema, { q: state.q, page: state.page, limit: state.limit }, { explicit: PAGING })}${everyAccount ? '&account=all' : ''}`
      : `/api/collections?${stateQuery(listStateSchema, state, { explicit: PAGING })}`;
  return queryOptions({
    queryKey: everyAccount
      ? [...queryKeys.collectionList(path, state), 'every-account']
      : queryKeys.collectionList(path, state),
    queryFn: async ({ signal }) =>
      toRowPage(
        await apiGet<CollectionListEnvelope | { data: SearchHit[]; meta: CollectionListEnvelope['meta'] }>(api, {
          signal,
        }),
      ),
    // A page the index answered because the upstream's list failed: the live list is asked again, and
    // replaces it as soon as the upstream answers.
    refetchInterval: (query) => (query.state.data?.meta.fallback ? FALLBACK_RETRY_MS : false),
  });
}

/** How often a list shown from the index while the upstream fails asks the upstream again. */
export const FALLBACK_RETRY_MS = 15_000;
