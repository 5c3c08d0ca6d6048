'use client';

import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { Pagination } from '@/components/collections/pagination';
import { DEFAULT_LIMIT, DEFAULT_PAGE, lastPage } from '@/lib/api/list-state';
import { navigationStarted } from '@/lib/navigation/progress';

/**
 * The list's pagination for pages the server renders (search results, filtered
 * views): each control navigates to the URL of that page; the server answers.
 */
export function LinkPagination({
  page,
  limit,
  count,
  rowsOnPage,
  path,
  keep,
}: {
  page: number;
  limit: number;
  count: number;
  rowsOnPage: number;
  path: string;
  /** The rest of the query (filters, the search), kept as it is. */
  keep: string;
}) {
  const router = useRouter();
  const [busy, startTransition] = useTransition();
  const go = (p: number, l: number) => {
    const query = new URLSearchParams(keep);
    if (p !== DEFAULT_PAGE) query.set('page', String(p));
    if (l !== DEFAULT_LIMIT) query.set('limit', String(l));
    navigationStarted(`${path}?${query}`);
    startTransition(() => router.push(`${path}?${query}`));
  };
  return (
    <Pagination
      page={page}
      limit={limit}
      count={count}
      rowsOnPage={rowsOnPage}
      lastPage={lastPage(count, limit)}
      busy={busy}
      onPage={(p) => go(p, limit)}
      onLimit={(size) => go(Math.floor(((page - 1) * limit) / size) + 1, size)}
    />
  );
}
