import { dehydrate, HydrationBoundary, noop } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { unauthorized } from 'next/navigation';
import { CollectionsTable } from '@/components/collections/collections-table';
import { FilterBar } from '@/components/collections/filter-bar';
import { IndexResults } from '@/components/search-index/index-results';
import { DetailError } from '@/components/ui/detail-error';
import { ExportCsv } from '@/components/export/export-csv';
import {
  DEFAULT_LIMIT,
  DEFAULT_PAGE,
  isIndexed,
  listStateSchema,
  readListState,
  stateQuery,
  toSearchParams,
} from '@/lib/api/list-state';
import { collectionListOptions } from '@/lib/query/options';
import { QueryProvider } from '@/lib/query/query-provider';
import { getQueryClient } from '@/lib/query/query-client';
import { toRowPage } from '@/lib/query/rows';
import { isAdmin, requestContext } from '@/lib/server/context';
import { getConfig } from '@/lib/server/env';
import { toFailure } from '@/lib/server/errors';
import { indexedCollections, liveCollections } from '@/lib/server/search-index/reads';
import { indexService } from '@/lib/server/search-index/service';

export const metadata: Metadata = { title: 'Collections' };

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The collections list. Without filters it is the live upstream list (the
 * first page prefetched into the HTML, React Query from there on); with a
 * filter, a search or a sort it is served from the index, rendered here.
 */
export default async function CollectionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  // proxy.ts has already redirected invalid values; this only fills in defaults.
  const state = readListState(toSearchParams(await searchParams));
  const context = await requestContext().catch(() => unauthorized());
  const minorUnits = getConfig().amountMinorUnits;
  // The filter menus' counts come from the index (cached); without it the menus are left out.
  const facets = indexService()
    .facets()
    .catch(() => null);
  // Cached for 2 s by the service: the freshness line and the export control read it.
  const status = await indexService().status();
  const exportQuery = stateQuery(listStateSchema, { ...state, page: DEFAULT_PAGE, limit: DEFAULT_LIMIT });
  const heading = (count?: number) => (
    <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
      <h1 className="text-xl font-semibold tracking-tight">Collections</h1>
      <ExportCsv
        query={exportQuery}
        filtered={isIndexed(state)}
        indexOn={status.state !== 'off'}
        count={count}
        contactsAllowed={isAdmin(context)}
      />
    </div>
  );

  if (isIndexed(state)) {
    const result = await indexedCollections(context, state).catch((error: unknown) => toFailure(error, 'collections'));
    return (
      <>
        {heading('code' in result ? undefined : result.meta.count)}
        <FilterBar state={state} facets={await facets} />
        {'code' in result ? (
          <DetailError failure={result} />
        ) : (
          <IndexResults
            rows={result.data}
            count={result.meta.count}
            page={state.page}
            limit={state.limit}
            status={status}
            minorUnits={minorUnits}
            matched={Boolean(state.q)}
            caption={`Filtered collections, page ${state.page}`}
            path="/collections"
            keep={stateQuery(listStateSchema, { ...state, page: 1, limit: 10 })}
            empty={{
              title: 'No collections match these filters',
              body:
                status.state === 'building'
                  ? 'Loosen a filter, or clear them all. The index is still being built, so some collections may not be here yet.'
                  : 'Loosen a filter, or clear them all.',
            }}
          />
        )}
      </>
    );
  }

  // The first page of data goes into the HTML: prefetch with the data layer under the browser's key.
  const queryClient = getQueryClient();
  const read = async () => toRowPage(await liveCollections(context, state));
  await queryClient
    .query({
      ...collectionListOptions(state),
      queryFn: () => read().catch((error: unknown) => Promise.reject(toFailure(error, 'collections'))),
    })
    .catch(noop); // a failure stays in the cache and is dehydrated: the table shows it
  if (queryClient.getQueryState(collectionListOptions(state).queryKey)?.error?.code === 'unauthorized') unauthorized();

  return (
    <>
      {heading(status.state === 'off' ? undefined : (status.upstreamCount ?? undefined))}
      <FilterBar state={state} facets={await facets} />
      {/* React Query loads on the table page only: the detail pages are pure server renders. */}
      <QueryProvider>
        <HydrationBoundary state={dehydrate(queryClient)}>
          <CollectionsTable minorUnits={minorUnits} />
        </HydrationBoundary>
      </QueryProvider>
    </>
  );
}
