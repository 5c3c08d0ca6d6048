import 'server-only';
import { dehydrate, HydrationBoundary, noop } from '@tanstack/react-query';
import { cookies } from 'next/headers';
import { unauthorized } from 'next/navigation';
import type { ReactNode } from 'react';
import { CollectionsTable } from '@/components/collections/collections-table';
import type { ListPath, ListState } from '@/lib/api/list-state';
import type { ApiFailure } from '@/lib/api/failure';
import { columnsFromCookie, COLUMNS_COOKIE, type ListColumnId } from '@/lib/api/columns';
import type { SavedView } from '@/lib/api/views';
import { collectionListOptions } from '@/lib/query/options';
import { QueryProvider } from '@/lib/query/query-provider';
import { getQueryClient } from '@/lib/query/query-client';
import { toRowPage } from '@/lib/query/rows';
import { getConfig } from '@/lib/server/env';
import { toFailure } from '@/lib/server/errors';
import { answerPageWith } from '@/lib/server/page-status';

type Page = Parameters<typeof toRowPage>[0];

/**
 * Every collections view (the live list, a filtered, sorted or searched one, search results) is this one
 * list: the first page read on the server through the data layer, under the key the browser's React Query
 * uses, and written into the HTML; the table (components/collections/collections-table.tsx) pages from
 * there through `/api`. The view's count comes back for the heading's Export.
 */
export async function prefetchList(
  path: ListPath,
  state: ListState,
  read: () => Promise<Page>,
  opened: {
    columns?: ListColumnId[];
    view?: SavedView | null;
    viewState?: ListState;
    views?: boolean;
    /** A search of every account: the accounts' names by id, for the Account column. */
    accountNames?: Record<string, string>;
  } = {},
) {
  const queryClient = getQueryClient();
  const options = collectionListOptions(path, state, Boolean(opened.accountNames));
  await queryClient
    .query({
      ...options,
      queryFn: () => read().then(toRowPage, (error: unknown) => Promise.reject(toFailure(error, 'collections'))),
    })
    .catch(noop); // a failure stays in the cache and is dehydrated: the table shows it, with Retry
  const failure = queryClient.getQueryState(options.queryKey)?.error as ApiFailure | null | undefined;
  if (failure?.code === 'unauthorized') unauthorized();
  // The table shows the failure with Retry; the page answers the status /api gives it.
  if (failure) answerPageWith(failure.code);
  const count = queryClient.getQueryData(options.queryKey)?.meta.count;
  // A saved view's columns; else those this browser chose (a tampered cookie: the defaults).
  const columns = opened.columns ?? columnsFromCookie((await cookies()).get(COLUMNS_COOKIE)?.value);

  const rows = (view: {
    live?: boolean;
    matched?: boolean;
    caption: string;
    empty: { title: string; body: ReactNode };
  }) => (
    <QueryProvider>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <CollectionsTable
          // Another view is another table: its columns start from that view's.
          key={opened.view?.id ?? 'list'}
          path={path}
          minorUnits={getConfig().amountMinorUnits}
          columns={columns}
          view={opened.view ?? null}
          viewState={opened.viewState}
          views={opened.views ?? true}
          accountNames={opened.accountNames}
          {...view}
        />
      </HydrationBoundary>
    </QueryProvider>
  );
  return { count, rows };
}
