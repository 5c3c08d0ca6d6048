import Link from 'next/link';
import type { ReactNode } from 'react';
import { EmptyState } from '@/components/ui/empty-state';
import { lastPage } from '@/lib/api/list-state';
import { FreshnessLine, type Freshness } from './freshness';
import { LinkPagination } from './link-pagination';
import { SummaryTable, type SummaryRow } from './summary-table';
import { TrailRecorder } from '@/components/trail/trail-recorder';
import { SkipToPagination } from '@/components/ui/skip-link';

/**
 * An index-served page of collections (a filtered list, search results): how
 * fresh, the rows or what to do when there are none, and pagination by URL.
 */
export function IndexResults({
  rows,
  count,
  page,
  limit,
  status,
  minorUnits,
  matched = false,
  caption,
  path,
  keep,
  empty,
}: {
  rows: SummaryRow[];
  count: number;
  page: number;
  limit: number;
  status: Freshness;
  minorUnits: boolean;
  matched?: boolean;
  caption: string;
  path: '/collections' | '/search';
  /** The query without page and limit (the filters, the search). */
  keep: string;
  /** What to say when nothing matches at all. */
  empty: { title: string; body: ReactNode };
}) {
  const last = lastPage(count, limit);
  const lastHref = `${path}?${new URLSearchParams([...new URLSearchParams(keep), ['page', String(last)], ['limit', String(limit)]])}`;
  return (
    <>
      <FreshnessLine freshness={status} />
      {rows.length ? (
        <TrailRecorder path={path} keep={keep} page={page} limit={limit} count={count}>
          <SkipToPagination />
          <SummaryTable rows={rows} matched={matched} caption={caption} minorUnits={minorUnits} />
        </TrailRecorder>
      ) : count ? (
        <EmptyState title={`Page ${page} is past the end`}>
          <Link href={lastHref} className="font-medium text-sky-800 underline dark:text-sky-300">
            Go to the last page
          </Link>
        </EmptyState>
      ) : (
        <EmptyState title={empty.title}>{empty.body}</EmptyState>
      )}
      <LinkPagination page={page} limit={limit} count={count} rowsOnPage={rows.length} path={path} keep={keep} />
    </>
  );
}
