import { redirect } from 'next/navigation';
import { tagQuery, tagQueryHref } from '@/lib/api/annotations';
import { withAccount } from '@/lib/accounts/href';
import type { Metadata } from 'next';
import { ExportCsv } from '@/components/export/export-csv';
import { buildingOf } from '@/components/export/export-props';
import { EmptyState } from '@/components/ui/empty-state';
import { FreshnessLine } from '@/components/search-index/freshness';
import { MAX_QUERY, readSearchState, readViewState, toSearchParams } from '@/lib/api/list-state';
import { SearchTooLong } from '@/components/search-index/search-too-long';
import { StatusOffer } from '@/components/search-index/status-offer';
import { Announce } from '@/components/ui/announce';
import { requestContext } from '@/lib/server/context';
import { searchCollections, searchReading } from '@/lib/server/reads/collections';
import { NothingFound } from '@/components/search-index/nothing-found';
import { pageRuntime } from '@/lib/server/page-runtime';
import { getConfig } from '@/lib/server/env';
import { visibleAccounts } from '@/lib/server/accounts/access';
import { EVERY_ACCOUNT } from '@/lib/server/accounts/config';
import { searchEveryAccount } from '@/lib/server/reads/search-all';
import { AccountScopeNav } from '@/components/account/scope-nav';
import { seesContactDetails } from '@/lib/server/contact-details';
import { prefetchList } from '../collections/collections-view';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const { q } = readSearchState(toSearchParams(await searchParams));
  return { title: q ? `“${q}” · Search` : 'Search' };
}

/** `/search?q=`: every collection the index matches, with what it matched on. */
export default async function SearchPage({ searchParams }: Props) {
  const rt = await pageRuntime();
  const search = toSearchParams(await searchParams);
  const view = readViewState('/search', search);
  const heading = <h1 className="mb-2 text-xl font-semibold tracking-tight">Search</h1>;
  const given = search.get('q') ?? '';
  if (!view.q && given.length > MAX_QUERY) {
    return (
      <>
        {heading}
        <SearchTooLong text={given} />
      </>
    );
  }
  if (!view.q) {
    return (
      <>
        {heading}
        <EmptyState title="Search for a collection">
          Type an e-mail address, a phone number (or its last four digits), a name or a reference in the Search box
          above. An id or a dashboard link opens the record itself.
        </EmptyState>
      </>
    );
  }
  const q = view.q;
  // `tag:vip`: the list of that tag (section 16), in the page's account.
  const tagged = tagQuery(q);
  if (tagged)
    redirect(withAccount(tagQueryHref(tagged), search.get('account') === EVERY_ACCOUNT ? null : search.get('account')));
  const context = await requestContext();
  // `account=all`: every account the user may see (proxy.ts let it through only here and on the overview).
  const config = getConfig();
  const every = config.multiAccount && search.get('account') === EVERY_ACCOUNT;
  const accounts =
    config.multiAccount && context.principal.kind === 'user'
      ? visibleAccounts(config, { ...context.principal, role: context.principal.globalRole }).map((v) => v.account)
      : [];
  const accountNames = every ? Object.fromEntries(accounts.map((a) => [a.id, a.name])) : undefined;
  // The index's state (cached 2 s) beside the first page, as before the one list.
  const [status, facets, { count, rows }] = await Promise.all([
    rt.index.status(),
    // A status word is offered the status filter (cached counts; without the index, no offer).
    rt.index.facets().catch(() => null),
    prefetchList(
      '/search',
      view,
      () =>
        every
          ? searchEveryAccount(rt, context, { q, page: view.page, limit: view.limit })
          : searchCollections(rt, context, { q, page: view.page, limit: view.limit }),
      { accountNames },
    ),
  ]);
  // Nothing found: how the text was read and what to try next (the account's countries, one small read).
  const reading = count === 0 && status.state !== 'off' ? await searchReading(rt, context, q).catch(() => null) : null;
  return (
    <>
      {heading}
      <Announce text={`${count} ${count === 1 ? 'result' : 'results'} for “${q}”`} />
      <div className="mb-3 flex flex-wrap items-start justify-between gap-3">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Results for <strong className="font-semibold">“{q}”</strong>
        </p>
        <ExportCsv
          query={new URLSearchParams({ q }).toString()}
          filtered
          indexOn={status.state !== 'off'}
          count={count}
          contactsAllowed={seesContactDetails(context)}
          building={buildingOf(status)}
        />
      </div>
      {accounts.length > 1 ? (
        <AccountScopeNav
          label="Search in"
          current={rt.account}
          every={every}
          href={(account) => `/search?${new URLSearchParams({ q, account })}`}
        />
      ) : null}
      {status.state !== 'off' && !every ? <FreshnessLine freshness={status} /> : null}
      <StatusOffer q={q} held={facets?.status ?? null} />
      {rows({
        caption: `Search results for ${q}`,
        matched: true,
        empty: {
          title: `No collection matches “${q}”`,
          body: <NothingFound reading={reading} indexed={status.indexed} />,
        },
      })}
    </>
  );
}
