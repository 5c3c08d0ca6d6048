import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { redirect, unauthorized } from 'next/navigation';
import Link from '@/components/account/account-scope';
import { CorrectionsNotice } from '@/components/collections/corrections-notice';
import { FilterBar } from '@/components/collections/filter-bar';
import { StatusHint } from '@/components/collections/status-hint';
import { correctionMessage, CORRECTIONS_COOKIE, decodeCorrections } from '@/lib/api/list-corrections';
import { DateTime } from '@/components/ui/date-time';
import { label } from '@/lib/format/labels';
import { ExportCsv } from '@/components/export/export-csv';
import { buildingOf } from '@/components/export/export-props';
import { FreshnessLine } from '@/components/search-index/freshness';
import {
  DEFAULT_LIMIT,
  DEFAULT_PAGE,
  isIndexed,
  listStateSchema,
  readListState,
  stateQuery,
  toSearchParams,
  contactPath,
  collectionsHref,
  viewHref,
} from '@/lib/api/list-state';
import { requestContext } from '@/lib/server/context';
import { collectionsPage } from '@/lib/server/reads/collections';
import { pageRuntime } from '@/lib/server/page-runtime';
import { seesContactDetails } from '@/lib/server/contact-details';
import { getConfig } from '@/lib/server/env';
import { viewForPage } from '@/lib/server/reads/views';
import { openViewState, urlStatesList } from '@/lib/api/views';
import { prefetchList } from '../collections-view';

export const metadata: Metadata = { title: 'Collections' };

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The collections list, one list for every view: live from the upstream without filters, from the index
 * when filtered, sorted or searched (the same table and columns either way; only the source differs).
 */
export default async function CollectionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const rt = await pageRuntime();
  // proxy.ts has already redirected invalid values; this only fills in defaults.
  const search = toSearchParams(await searchParams);
  const context = await requestContext().catch(() => unauthorized());
  // A saved view (contract section 13): the one the URL names, else the reader's default when the URL says
  // nothing of the list. Its state applies until the URL states the list (the table writes it there).
  const requested = search.get('view');
  const bare = !urlStatesList(search);
  const opened = await viewForPage(rt, context, requested, bare);
  const view = opened.view;
  const fromView = view ? openViewState(view) : null;
  const state = fromView && bare ? fromView.state : readListState(search);
  // One contact's collections are its page (the contact named above them): `?contact=` goes there.
  if (state.contact) redirect(viewHref(contactPath(state.contact), state));
  const indexed = isIndexed(state);
  // What proxy.ts corrected in the URL it was given, named in a notice.
  const corrections = decodeCorrections((await cookies()).get(CORRECTIONS_COOKIE)?.value).map(correctionMessage);
  // The filter menus' counts come from the index (cached); without it the menus are left out.
  const facets = rt.index.facets().catch(() => null);
  // Cached for 2 s by the service: the freshness line and the export control read it, beside the first page.
  const [status, { count, rows }] = await Promise.all([
    rt.index.status(),
    prefetchList('/collections', state, () => collectionsPage(rt, context, state), {
      columns: fromView?.columns ?? undefined,
      view,
      viewState: fromView && bare ? fromView.state : undefined,
    }),
  ]);
  return (
    <>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold tracking-tight">
            Collections
            {view ? <span className="font-normal text-zinc-600 dark:text-zinc-400"> · {view.name}</span> : null}
          </h1>
          {view ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              Saved view{view.mine ? (view.shared ? ', shared with everyone' : ', yours') : `, shared by ${view.owner}`}
              {view.isDefault ? ' · your default' : ''}
            </p>
          ) : null}
        </div>
        <ExportCsv
          // A saved view's export holds its columns, in its order (contract section 13).
          query={[
            stateQuery(listStateSchema, { ...state, page: DEFAULT_PAGE, limit: DEFAULT_LIMIT }),
            fromView?.columns ? `columns=${fromView.columns.join(',')}` : '',
          ]
            .filter(Boolean)
            .join('&')}
          filtered={indexed}
          indexOn={status.state !== 'off'}
          count={indexed ? count : status.state === 'off' ? undefined : (status.upstreamCount ?? undefined)}
          contactsAllowed={seesContactDetails(context)}
          building={buildingOf(status)}
        />
      </div>
      <CorrectionsNotice messages={corrections} />
      {opened.missing ? (
        <p
          role="status"
          className="mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          That view was not found: it was deleted, or it is not shared with you. Showing the list without it.
        </p>
      ) : null}
      {fromView?.dropped.length ? (
        <p
          role="status"
          className="mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          This view was saved with what the list no longer has, opened without it: {fromView.dropped.join(', ')}.
        </p>
      ) : null}
      {state.change || state.changedSince ? (
        <p
          role="status"
          className="mb-3 rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100"
        >
          {state.change
            ? `Collections the index saw change from ${label(state.change.from).text} to ${label(state.change.to).text}`
            : 'Collections the index saw change'}
          {state.changedSince ? (
            <>
              {' since '}
              <DateTime iso={state.changedSince} />
            </>
          ) : null}
          , as they are now.{' '}
          <Link
            href={collectionsHref({ ...state, change: undefined, changedSince: undefined, page: DEFAULT_PAGE })}
            className="font-medium underline underline-offset-2"
          >
            Show them all
          </Link>
        </p>
      ) : null}
      <StatusHint state={state} held={(await facets)?.status ?? null} />
      <FilterBar
        state={state}
        facets={await facets}
        view={view?.id ?? null}
        noViewOnClear={Boolean(view) || opened.hasDefault}
        minorUnits={getConfig().amountMinorUnits}
      />
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
