import Link from 'next/link';
import { DetailError } from '@/components/ui/detail-error';
import { EmptyState } from '@/components/ui/empty-state';
import type { ApiFailure } from '@/lib/api/failure';
import { collectionsHref, lastPage, listStateSchema, stateQuery, type ListState } from '@/lib/api/list-state';
import { FreshnessLine, type Freshness } from './freshness';
import { LinkPagination } from './link-pagination';
import { SummaryTable, type SummaryRow } from './summary-table';

type Result = { data: SummaryRow[]; meta: { count: number } } | ApiFailure;

/** A filtered, sorted or searched view of the list, as the index serves it. */
export function IndexedList({
  state,
  result,
  status,
  minorUnits,
}: {
  state: ListState;
  result: Result;
  status: Freshness;
  minorUnits: boolean;
}) {
  if ('code' in result) return <DetailError failure={result} />;
  const { data, meta } = result;
  const last = lastPage(meta.count, state.limit);
  const keep = new URLSearchParams(stateQuery(listStateSchema, { ...state, page: 1, limit: 10 }));
  return (
    <>
      <FreshnessLine freshness={status} />
      {data.length ? (
        <SummaryTable
          rows={data}
          matched={Boolean(state.q)}
          caption={`Filtered collections, page ${state.page} of ${last}`}
          minorUnits={minorUnits}
        />
      ) : meta.count ? (
        <EmptyState title={`Page ${state.page} is past the end`}>
          <Link
            href={collectionsHref({ ...state, page: last })}
            className="font-medium text-sky-800 underline dark:text-sky-300"
          >
            Go to the last page
          </Link>
        </EmptyState>
      ) : (
        <EmptyState title="No collections match these filters">
          Loosen a filter, or clear them all.{' '}
          {status.state === 'building'
            ? 'The index is still being built, so some collections may not be here yet.'
            : ''}
        </EmptyState>
      )}
      <LinkPagination
        page={state.page}
        limit={state.limit}
        count={meta.count}
        rowsOnPage={data.length}
        path="/collections"
        keep={keep.toString()}
      />
    </>
  );
}
