'use client';

import { Button } from '@/components/ui/button';
import { PAGE_SIZES } from '@/lib/api/list-state';

type Props = {
  page: number;
  limit: number;
  count: number;
  rowsOnPage: number;
  lastPage: number;
  busy: boolean;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
};

// Drawn once in the layout's sprite (app/layout.tsx), referenced here: their paths stay out of the list's script.
const icon = (id: string) => (
  <svg aria-hidden="true" className="size-4">
    <use href={`#i-${id}`} />
  </svg>
);
const ICONS = { first: icon('first'), prev: icon('prev'), next: icon('next'), last: icon('last') };

/** Summary ("11–20 of 253"), rows per page, and First/Previous/Next/Last page. */
export function Pagination({ page, limit, count, rowsOnPage, lastPage, busy, onPage, onLimit }: Props) {
  const from = rowsOnPage ? (page - 1) * limit + 1 : 0;
  const to = rowsOnPage ? from + rowsOnPage - 1 : 0;
  const nf = new Intl.NumberFormat('en');
  const atStart = page <= 1;
  const atEnd = page >= lastPage;

  return (
    <nav
      id="pagination"
      tabIndex={-1}
      aria-label="Pagination"
      className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm"
    >
      <p aria-live="polite" className="tabular-nums text-zinc-700 dark:text-zinc-300">
        {rowsOnPage ? `${nf.format(from)}–${nf.format(to)} of ${nf.format(count)}` : `0 of ${nf.format(count)}`}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex items-center gap-2">
          <span>Rows per page</span>
          <select
            value={limit}
            onChange={(e) => onLimit(Number(e.target.value))}
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        <span className="tabular-nums text-zinc-700 dark:text-zinc-300">
          Page {nf.format(page)} of {nf.format(lastPage)}
        </span>
        <div className="flex gap-1">
          <Button aria-label="First page" disabled={atStart} onClick={() => onPage(1)} className="px-2">
            {ICONS.first}
          </Button>
          <Button
            aria-label="Previous page"
            disabled={atStart}
            onClick={() => onPage(Math.min(page - 1, lastPage))}
            className="px-2"
          >
            {ICONS.prev}
          </Button>
          <Button
            aria-label="Next page"
            disabled={atEnd}
            onClick={() => onPage(page + 1)}
            className="px-2"
            aria-busy={busy || undefined}
          >
            {ICONS.next}
          </Button>
          <Button aria-label="Last page" disabled={page === lastPage} onClick={() => onPage(lastPage)} className="px-2">
            {ICONS.last}
          </Button>
        </div>
      </div>
    </nav>
  );
}
