import { dehydrate, HydrationBoundary, noop } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { unauthorized } from 'next/navigation';
import { CollectionsTable } from '@/components/collections/collections-table';
import { isIndexed, readListState, toSearchParams } from '@/lib/api/list-state';
import { collectionListOptions } from '@/lib/query/options';
import { QueryProvider } from '@/lib/query/query-provider';
import { getQueryClient } from '@/lib/query/query-client';
import { toRowPage } from '@/lib/query/rows';
import { toFailure } from '@/lib/server/errors';
import { liveCollections } from '@/lib/server/reads/collections';
import { collectionsView, FilteredCollections } from '../collections-view';

export const metadata: Metadata = { title: 'Collections' };

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The collections list: the live upstream list (the first page prefetched into the HTML, React Query from
 * there on). A filter, a search or a sort is served from the index at `/collections/filtered`, where
 * proxy.ts rewrites such URLs; this page renders one too if it is ever asked for it.
 */
export default async function CollectionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  // proxy.ts has already redirected invalid values; this only fills in defaults.
  const state = readListState(toSearchParams(await searchParams));
  if (isIndexed(state)) return <FilteredCollections state={state} />;
  const { context, status, top, minorUnits } = await collectionsView(state);

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
      {await top(status.state === 'off' ? undefined : (status.upstreamCount ?? undefined))}
      {/* React Query loads on the live list only: the detail pages and the filtered views are server renders. */}
      <QueryProvider>
        <HydrationBoundary state={dehydrate(queryClient)}>
          <CollectionsTable minorUnits={minorUnits} />
        </HydrationBoundary>
      </QueryProvider>
    </>
  );
}
