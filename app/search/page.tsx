import type { Metadata } from 'next';
import { ExportCsv } from '@/components/export/export-csv';
import { EmptyState } from '@/components/ui/empty-state';
import { DetailError } from '@/components/ui/detail-error';
import { IndexResults } from '@/components/search-index/index-results';
import { readSearchState, toSearchParams } from '@/lib/api/list-state';
import { isAdmin, requestContext } from '@/lib/server/context';
import { getConfig } from '@/lib/server/env';
import { toFailure } from '@/lib/server/errors';
import { searchCollections } from '@/lib/server/reads/collections';
import { runtime } from '@/lib/server/runtime';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const { q } = readSearchState(toSearchParams(await searchParams));
  return { title: q ? `“${q}” · Search` : 'Search' };
}

/** `/search?q=`: every collection the index matches, with what it matched on. */
export default async function SearchPage({ searchParams }: Props) {
  const state = readSearchState(toSearchParams(await searchParams));
  const heading = <h1 className="mb-2 text-xl font-semibold tracking-tight">Search</h1>;
  if (!state.q) {
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
  const q = state.q;
  const context = await requestContext();
  const [result, status] = await Promise.all([
    searchCollections(context, { ...state, q }).catch((error: unknown) => toFailure(error, 'collections')),
    runtime().index.status(),
  ]);
  const lead = (
    <div className="mb-3 flex flex-wrap items-start justify-between gap-3">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Results for <strong className="font-semibold">“{q}”</strong>
      </p>
      <ExportCsv
        query={new URLSearchParams({ q }).toString()}
        filtered
        indexOn={status.state !== 'off'}
        count={'code' in result ? undefined : result.meta.count}
        contactsAllowed={isAdmin(context)}
      />
    </div>
  );
  if ('code' in result) {
    return (
      <>
        {heading}
        {lead}
        <DetailError failure={result} />
      </>
    );
  }
  return (
    <>
      {heading}
      {lead}
      <IndexResults
        rows={result.data}
        count={result.meta.count}
        page={state.page}
        limit={state.limit}
        status={status}
        minorUnits={getConfig().amountMinorUnits}
        matched
        caption={`Search results for ${q}, page ${state.page}`}
        path="/search"
        keep={new URLSearchParams({ q }).toString()}
        empty={{
          title: `No collection matches “${q}”`,
          body: `Searched e-mail addresses, phone numbers (and their last four digits), names and references of ${status.indexed.toLocaleString('en')} indexed collections. E-mails and phones must match in full; references match from their start.`,
        }}
      />
    </>
  );
}
