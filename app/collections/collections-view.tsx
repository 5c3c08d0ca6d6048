import 'server-only';
import { unauthorized } from 'next/navigation';
import type { ReactNode } from 'react';
import { FilterBar } from '@/components/collections/filter-bar';
import { ExportCsv } from '@/components/export/export-csv';
import { IndexResults } from '@/components/search-index/index-results';
import { DetailError } from '@/components/ui/detail-error';
import {
  DEFAULT_LIMIT,
  DEFAULT_PAGE,
  isIndexed,
  listStateSchema,
  stateQuery,
  type ListState,
} from '@/lib/api/list-state';
import { isAdmin, requestContext } from '@/lib/server/context';
import { getConfig } from '@/lib/server/env';
import { toFailure } from '@/lib/server/errors';
import { indexedCollections } from '@/lib/server/reads/collections';
import { runtime } from '@/lib/server/runtime';

/**
 * What both collections pages share (not a route: the live list at `/collections`, and filtered, searched
 * or sorted views at `/collections/filtered`, where proxy.ts rewrites them so that they never download the
 * live table's React Query and TanStack Table): the context, the index's state, the heading with Export CSV
 * and the filter bar.
 */
export async function collectionsView(state: ListState) {
  const context = await requestContext().catch(() => unauthorized());
  // The filter menus' counts come from the index (cached); without it the menus are left out.
  const facets = runtime()
    .index.facets()
    .catch(() => null);
  // Cached for 2 s by the service: the freshness line and the export control read it.
  const status = await runtime().index.status();
  const exportQuery = stateQuery(listStateSchema, { ...state, page: DEFAULT_PAGE, limit: DEFAULT_LIMIT });
  const top = async (count: number | undefined): Promise<ReactNode> => (
    <>
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
      <FilterBar state={state} facets={await facets} />
    </>
  );
  return { context, status, top, minorUnits: getConfig().amountMinorUnits };
}

/** A filtered, searched or sorted view: served from the index, rendered on the server. */
export async function FilteredCollections({ state }: { state: ListState }) {
  const { context, status, top, minorUnits } = await collectionsView(state);
  const result = await indexedCollections(context, state).catch((error: unknown) => toFailure(error, 'collections'));
  return (
    <>
      {await top('code' in result ? undefined : result.meta.count)}
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
