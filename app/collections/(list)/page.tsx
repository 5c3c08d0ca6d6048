import type { Metadata } from 'next';
import { unauthorized } from 'next/navigation';
import { FilterBar } from '@/components/collections/filter-bar';
import { ExportCsv } from '@/components/export/export-csv';
import { FreshnessLine } from '@/components/search-index/freshness';
import {
  DEFAULT_LIMIT,
  DEFAULT_PAGE,
  isIndexed,
  listStateSchema,
  readListState,
  stateQuery,
  toSearchParams,
} from '@/lib/api/list-state';
import { isAdmin, requestContext } from '@/lib/server/context';
import { indexedCollections, liveOrIndexed } from '@/lib/server/reads/collections';
import { runtime } from '@/lib/server/runtime';
import { prefetchList } from '../collections-view';

export const metadata: Metadata = { title: 'Collections' };

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The collections list, one list for every view: live from the upstream without filters, from the index
 * when filtered, sorted or searched (the same table and columns either way; only the source differs).
 */
export default async function CollectionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  // proxy.ts has already redirected invalid values; this only fills in defaults.
  const state = readListState(toSearchParams(await searchParams));
  const context = await requestContext().catch(() => unauthorized());
  const indexed = isIndexed(state);
  // The filter menus' counts come from the index (cached); without it the menus are left out.
  const facets = runtime()
    .index.facets()
    .catch(() => null);
  // Cached for 2 s by the service: the freshness line and the export control read it, beside the first page.
  const [status, { count, rows }] = await Promise.all([
    runtime().index.status(),
    prefetchList('/collections', state, () =>
      indexed ? indexedCollections(context, state) : liveOrIndexed(context, state),
    ),
  ]);
  return (
    <>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <h1 className="text-xl font-semibold tracking-tight">Collections</h1>
        <ExportCsv
          query={stateQuery(listStateSchema, { ...state, page: DEFAULT_PAGE, limit: DEFAULT_LIMIT })}
          filtered={indexed}
          indexOn={status.state !== 'off'}
          count={indexed ? count : status.state === 'off' ? undefined : (status.upstreamCount ?? undefined)}
          contactsAllowed={isAdmin(context)}
        />
      </div>
      <FilterBar state={state} facets={await facets} />
      {indexed && status.state !== 'off' ? <FreshnessLine freshness={status} /> : null}
      {indexed
        ? rows({
            caption: 'Filtered collections',
            matched: Boolean(state.q),
            empty: {
              title: 'No collections match these filters',
              body:
                status.state === 'building'
                  ? 'Loosen a filter, or clear them all. The index is still being built, so some collections may not be here yet.'
                  : 'Loosen a filter, or clear them all.',
            },
          })
        : rows({
            caption: 'Collections',
            live: true,
            empty: {
              title: 'No collections yet',
              body: 'Collections this account creates through the API will appear here.',
            },
          })}
    </>
  );
}
