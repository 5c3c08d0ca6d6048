'use client';

import { keepPreviousData, noop, useQuery, useQueryClient } from '@tanstack/react-query';
import { flexRender, useTable } from '@tanstack/react-table';
import Link from '@/components/account/account-scope';
import { usePageAccount, useRouter } from '@/components/account/account-scope';
import { useEffect, useMemo, useState, type ChangeEvent, type MouseEvent, type ReactNode } from 'react';
import { useZone } from '@/components/ui/zone';
import { EmptyState } from '@/components/ui/empty-state';
import { SkipToPagination } from '@/components/ui/skip-link';
import { formatDateTime, zoneName } from '@/lib/format/dates';
import { DateTime } from '@/components/ui/date-time';
import type { ErrorCode } from '@/lib/api/error-codes';
import { ErrorState } from '@/components/ui/error-state';
import {
  filterSchema,
  lastPage as lastPageOf,
  stateQuery,
  viewHref,
  viewQuery,
  type ListPath,
  type ListState,
} from '@/lib/api/list-state';
import { TagSelectedControl } from '@/components/tags/tag-selected-control';
import type { SavedView } from '@/lib/api/views';
import { ViewsControl } from '@/components/views/views-control';
import type { CollectionRow, RowFallback } from '@/lib/query/rows';
import { collectionListOptions } from '@/lib/query/options';
import { CELL_PROPS, collectionColumns, features, type ColumnId, type Copied } from './columns';
import { Pagination } from './pagination';
import { rememberListHref } from './list-memory';
import { TrailRecorder } from '@/components/trail/trail-recorder';
import { navigationStarted } from '@/lib/navigation/progress';
import { useListState } from './use-list-state';
import { ColumnsControl } from './columns-control';
import { columnsCookie, DEFAULT_COLUMNS, type ListColumnId } from '@/lib/api/columns';

const NO_ROWS: CollectionRow[] = [];

/**
 * The one collections list: the live list, a filtered, sorted or searched view, search results. Its state
 * lives in the URL (shallow, with history), rows come from React Query (hydrated from the server's
 * prefetch), the previous page stays on screen while the next loads, and the page after this one is
 * always fetched ahead.
 */
export function CollectionsTable({
  path,
  minorUnits,
  matched = false,
  live = false,
  empty,
  caption,
  columns: initialColumns = DEFAULT_COLUMNS,
  view = null,
  viewState,
  views = false,
  accountNames,
}: {
  /** A search of every account: each account's name by id (an Account column; rows link in their account). */
  accountNames?: Record<string, string>;
  /** The saved view this list opened (contract section 13), or null: its columns are the view's to change. */
  view?: SavedView | null;
  /** The view's state, while the URL does not state the list yet (a view opened by id or as the default). */
  viewState?: ListState;
  /** Offer the "Views" menu (the collections list, with the application's database). */
  views?: boolean;
  /** The columns shown, in order, as the server read them from the browser's cookie. */
  columns?: readonly ListColumnId[];
  path: ListPath;
  minorUnits: boolean;
  /** Search results: a "Matched on" column. */
  matched?: boolean;
  /** The live upstream list: its summary line says what the upstream lists. */
  live?: boolean;
  /** What to say when the view holds nothing at all. */
  empty: { title: string; body: ReactNode };
  /** The table's caption before ", page N of M". */
  caption: string;
}) {
  const router = useRouter();
  const account = usePageAccount();
  const queryClient = useQueryClient();
  const [state, setState] = useListState(path, view && viewState ? { id: view.id, state: viewState } : undefined);
  const { page, limit } = state;
  const query = useQuery({
    ...collectionListOptions(path, state, Boolean(accountNames)),
    placeholderData: keepPreviousData,
  });
  const envelope = query.data;
  const count = envelope?.meta.count ?? 0;
  const lastPage = lastPageOf(count, limit);
  const next = query.isPlaceholderData ? null : envelope?.meta.next;

  useEffect(() => {
    if (next)
      queryClient.query(collectionListOptions(path, { ...state, page: next }, Boolean(accountNames))).catch(noop);
  }, [next, path, state, queryClient, accountNames]);

  useEffect(() => rememberListHref(viewHref(path, state)), [path, state]);

  const zone = useZone();
  const [copied, setCopied] = useState<Copied>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 1500);
    return () => clearTimeout(timer);
  }, [copied]);

  // Rows ticked for "Tag selected" (section 16): this page's only, forgotten when the page changes.
  const pageKey = viewHref(path, state);
  const [selection, setSelection] = useState<{ key: string; ids: ReadonlySet<string> }>({ key: '', ids: new Set() });
  const selected: ReadonlySet<string> = selection.key === pageKey ? selection.ids : new Set();
  /**
   * The row checkboxes are plain inputs in the Reference cells (no component per row): one change handler on
   * the table reads which are ticked; "Select all on this page" ticks or clears them all.
   */
  function onSelect(event: ChangeEvent<HTMLTableElement>) {
    const target = event.target as unknown as HTMLInputElement;
    const boxes = [...event.currentTarget.querySelectorAll<HTMLInputElement>('input[data-select]')];
    if (target.dataset.selectAll !== undefined) for (const box of boxes) box.checked = target.checked;
    else if (target.dataset.select === undefined) return;
    const all = event.currentTarget.querySelector<HTMLInputElement>('input[data-select-all]');
    const ticked = boxes.filter((box) => box.checked);
    if (all) all.checked = ticked.length > 0 && ticked.length === boxes.length;
    setSelection({ key: pageKey, ids: new Set(ticked.map((box) => box.dataset.select!)) });
  }
  function clearSelection() {
    for (const box of document.querySelectorAll<HTMLInputElement>('input[data-select], input[data-select-all]'))
      box.checked = false;
    setSelection({ key: pageKey, ids: new Set() });
  }
  const [tagged, setTagged] = useState('');
  const selecting = !accountNames;

  const [shown, setShown] = useState<readonly ListColumnId[]>(initialColumns);
  function chooseColumns(next: ListColumnId[]) {
    // Without a view the choice is remembered for this browser; within one it is the view's change to save.
    if (!view) document.cookie = columnsCookie(next);
    setShown(next);
  }
  const viewsControl = views ? <ViewsControl state={state} columns={shown} view={view} /> : null;
  const columns = useMemo(
    () =>
      collectionColumns({
        minorUnits,
        matched,
        people: matched || Boolean(state.q),
        zone,
        copied,
        shown,
        account,
        accountNames,
        selectable: !accountNames,
      }),
    [minorUnits, matched, state.q, zone, copied, shown, account, accountNames],
  );
  const table = useTable({
    features,
    columns,
    data: envelope?.data ?? NO_ROWS,
  });

  if (!envelope) {
    if (query.isError)
      return (
        <ErrorState
          key={query.errorUpdatedAt}
          failure={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      );
    return <LoadingRows />;
  }

  const rows = table.getRowModel().rows;
  const busy = query.isPlaceholderData && query.isFetching;

  /**
   * One handler for the whole table, going where the row's link goes. A plain
   * click on that link, or anywhere on the row outside another control, is a
   * client-side navigation; modified clicks (new tab, new window) keep the
   * browser's own behaviour on links and open a new tab elsewhere on the row.
   * Selecting text never navigates. A row's copy button copies its id.
   */
  function openRow(event: MouseEvent<HTMLTableSectionElement>) {
    const target = event.target as HTMLElement;
    const copy = target.closest<HTMLElement>('[data-copy]')?.dataset.copy;
    if (copy) {
      // Inside a promise: without a secure context `navigator.clipboard` is missing, and that is a failure too.
      Promise.resolve(copy)
        .then((text) => navigator.clipboard.writeText(text))
        .then(
          () => setCopied({ id: copy, ok: true }),
          () => setCopied({ id: copy, ok: false }),
        );
      return;
    }
    // The link pressed (the record's, or a search result's contact page), else the row's record.
    const href =
      target.closest('a[href]')?.getAttribute('href') ??
      target.closest('tr')?.querySelector('a[href^="/collections/"]')?.getAttribute('href');
    if (!href || event.button !== 0 || target.closest('button, input, select, label')) return;
    const modified = event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
    if (target.closest('a')) {
      if (modified) return;
      event.preventDefault();
      router.push(href);
    } else if (!window.getSelection()?.toString()) {
      if (modified) window.open(href, '_blank', 'noopener');
      else {
        navigationStarted(href);
        router.push(href);
      }
    }
  }

  return (
    <div>
      {query.isError ? (
        <div className="mb-3">
          <ErrorState
            key={query.errorUpdatedAt}
            failure={query.error}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        </div>
      ) : null}
      {rows.length === 0 && viewsControl ? <div className="mb-2 flex justify-end">{viewsControl}</div> : null}
      {count === 0 ? (
        <EmptyState title={empty.title}>{empty.body}</EmptyState>
      ) : rows.length === 0 ? (
        <EmptyState title={`Page ${page} is past the end`}>
          There {lastPage === 1 ? 'is 1 page' : `are ${lastPage} pages`} of {limit} rows.{' '}
          <Link
            href={viewHref(path, { ...state, page: lastPage })}
            className="font-medium text-sky-800 underline dark:text-sky-300"
          >
            Go to the last page
          </Link>
        </EmptyState>
      ) : (
        <TrailRecorder path={path} keep={viewQuery(path, state)} page={page} limit={limit} count={count}>
          {envelope.meta.fallback ? (
            <FallbackNotice
              fallback={envelope.meta.fallback}
              onRetry={() => void query.refetch()}
              retrying={query.isFetching}
            />
          ) : null}
          <div className="mb-2 flex flex-wrap items-start justify-between gap-2 max-sm:relative">
            {live ? <ListSummary count={count} at={query.dataUpdatedAt} /> : <span />}
            <div className="flex gap-2">
              {selecting ? (
                <TagSelectedControl
                  selected={[...selected]}
                  count={count}
                  query={path === '/collections' ? stateQuery(filterSchema, state) : null}
                  onDone={(message) => {
                    setTagged(message);
                    clearSelection();
                    void queryClient.invalidateQueries();
                  }}
                />
              ) : null}
              {viewsControl}
              <ColumnsControl shown={shown} onChange={chooseColumns} />
            </div>
          </div>
          <p role="status" className={tagged ? 'mb-2 text-sm' : 'sr-only'}>
            {tagged}
          </p>
          <SkipToPagination />
          <div
            role="region"
            aria-label="Collections table"
            tabIndex={0}
            className="overflow-x-auto rounded-lg border border-zinc-200 focus-visible:outline-2 focus-visible:outline-sky-600 dark:border-zinc-800"
          >
            <table
              onChange={selecting ? onSelect : undefined}
              aria-busy={busy}
              className={`list-cards w-full text-left text-sm transition-opacity ${busy ? 'opacity-60' : ''}`}
            >
              <caption className="sr-only">
                {caption}, page {page} of {lastPage}
              </caption>
              <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
                {table.getHeaderGroups().map((group) => (
                  <tr key={group.id}>
                    {group.headers.map((header) => (
                      <th key={header.id} scope="col" className="whitespace-nowrap px-2 py-2 font-medium">
                        {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                      </th>
                    ))}
                  </tr>
                ))}
              </thead>
              <tbody onClick={openRow} className="cells row-links divide-y divide-zinc-200 dark:divide-zinc-800">
                {rows.map((row) => (
                  <tr key={row.original.id}>
                    {/* flexRender, not <FlexRender>: one component less per cell, 800 on a 100-row page. */}
                    {row.getAllCells().map((cell) => (
                      <td key={cell.id} {...CELL_PROPS[cell.column.id as ColumnId]}>
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </TrailRecorder>
      )}
      <Pagination
        page={page}
        limit={limit}
        count={count}
        rowsOnPage={rows.length}
        lastPage={lastPage}
        busy={busy}
        onPage={(p) => setState({ ...state, page: p })}
        onLimit={(size) => setState({ ...state, limit: size, page: Math.floor(((page - 1) * limit) / size) + 1 })}
      />
    </div>
  );
}

/**
 * The line above the rows: how many, as of when the page was read (the index popover's figures are a reading
 * of their own, and the upstream's count moves: each says when), why that may be fewer than the account has
 * (the upstream lists integrated collections only; any other still opens by id), and the zone the times are in.
 */
function ListSummary({ count, at }: { count: number; at: number }) {
  const zone = useZone();
  return (
    <p className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">
      <span className="font-medium tabular-nums text-zinc-900 dark:text-zinc-100">
        {new Intl.NumberFormat('en').format(count)} {count === 1 ? 'collection' : 'collections'}
      </span>{' '}
      as of <DateTime iso={new Date(at).toISOString()} seconds short />{' '}
      {/* On a phone the rows come first: the count and the zone only. */}
      <span className="max-sm:hidden">
        · integrated collections only (the API lists no others; any collection opens by its id)
      </span>{' '}
      · times in {zone === 'UTC' ? 'UTC' : `${zoneName(zone)} (${zone})`}
    </p>
  );
}

/** What the upstream's failure was, in the words of the notice. */
const FAILED: Partial<Record<ErrorCode, string>> = {
  upstream_unreachable: 'The upstream API is unreachable',
  upstream_error: 'The upstream API is unavailable (it answers with errors)',
  upstream_timeout: 'The upstream API is unavailable (it does not answer in time)',
  rate_limited: 'The upstream API is unavailable (it is rate-limiting the dashboard)',
};

/**
 * The live list's page came from the index: the upstream's list failed. Says so, how fresh the index is,
 * and that the live list comes back by itself (the query asks again every 15 s; the button, now).
 */
function FallbackNotice({
  fallback,
  onRetry,
  retrying,
}: {
  fallback: RowFallback;
  onRetry: () => void;
  retrying: boolean;
}) {
  const zone = useZone();
  const nf = new Intl.NumberFormat('en');
  const held =
    fallback.upstreamCount === null
      ? `${nf.format(fallback.indexed)} indexed`
      : `${nf.format(fallback.indexed)} of ${nf.format(fallback.upstreamCount)}`;
  return (
    <div
      role="status"
      className="mb-3 flex flex-wrap items-center justify-between gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p>
        {FAILED[fallback.code] ?? 'The upstream API is unavailable'}; showing the index
        {fallback.asOf ? ` as of ${formatDateTime(fallback.asOf, zone)}` : ''}, {held}. The live list comes back by
        itself when the upstream answers.
      </p>
      <button
        type="button"
        onClick={onRetry}
        disabled={retrying}
        className="rounded-md border border-amber-400 px-2 py-1 font-medium hover:bg-amber-100 disabled:opacity-60 dark:border-amber-600 dark:hover:bg-amber-900"
      >
        {retrying ? 'Asking the upstream…' : 'Ask the upstream now'}
      </button>
    </div>
  );
}

/** Before the first page is in (not on a first load: the server prefetches it). */
function LoadingRows() {
  return (
    <p aria-busy="true" className="py-6 text-sm text-zinc-600 dark:text-zinc-400">
      Loading collections…
    </p>
  );
}
