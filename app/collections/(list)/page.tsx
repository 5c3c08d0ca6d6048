import { dehydrate, HydrationBoundary, noop } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { unauthorized } from 'next/navigation';
import { CollectionsTable } from '@/components/collections/collections-table';
import { readListState, toSearchParams } from '@/lib/api/list-state';
import { collectionListOptions } from '@/lib/query/options';
import { QueryProvider } from '@/lib/query/query-provider';
import { getQueryClient } from '@/lib/query/query-client';
import { toRowPage } from '@/lib/query/rows';
import { requestContext } from '@/lib/server/context';
import { listCollections } from '@/lib/server/data';
import { getConfig } from '@/lib/server/env';
import { toFailure } from '@/lib/server/errors';

export const metadata: Metadata = { title: 'Collections' };

type SearchParams = Record<string, string | string[] | undefined>;

export default async function CollectionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  // proxy.ts has already redirected invalid values; this only fills in defaults.
  const state = readListState(toSearchParams(await searchParams));

  // The first page of data goes into the HTML: prefetch with the data layer under the browser's key.
  const queryClient = getQueryClient();
  const read = async () => toRowPage(await listCollections(await requestContext(), state));
  await queryClient
    .query({
      ...collectionListOptions(state),
      queryFn: () => read().catch((error: unknown) => Promise.reject(toFailure(error, 'collections'))),
    })
    .catch(noop); // a failure stays in the cache and is dehydrated: the table shows it
  if (queryClient.getQueryState(collectionListOptions(state).queryKey)?.error?.code === 'unauthorized') unauthorized();

  return (
    <>
      <h1 className="mb-4 text-xl font-semibold tracking-tight">Collections</h1>
      {/* React Query loads on the table page only: the detail pages are pure server renders. */}
      <QueryProvider>
        <HydrationBoundary state={dehydrate(queryClient)}>
          <CollectionsTable minorUnits={getConfig().amountMinorUnits} />
        </HydrationBoundary>
      </QueryProvider>
    </>
  );
}
