import type { Metadata } from 'next';
import Link from '@/components/account/account-scope';
import { notFound, unauthorized } from 'next/navigation';
import { FilterBar } from '@/components/collections/filter-bar';
import { ContactTotals } from '@/components/contacts/contact-totals';
import { ExportCsv } from '@/components/export/export-csv';
import { buildingOf } from '@/components/export/export-props';
import { FreshnessLine } from '@/components/search-index/freshness';
import { Copyable } from '@/components/ui/copyable';
import { DetailError } from '@/components/ui/detail-error';
import { EmptyState } from '@/components/ui/empty-state';
import { isContactId } from '@/lib/api/ids';
import {
  contactPath,
  DEFAULT_LIMIT,
  DEFAULT_PAGE,
  listStateSchema,
  readViewState,
  stateQuery,
  toSearchParams,
} from '@/lib/api/list-state';
import { requestContext } from '@/lib/server/context';
import { toFailure } from '@/lib/server/errors';
import { getConfig } from '@/lib/server/env';
import { answerPageWith } from '@/lib/server/page-status';
import { collectionsPage } from '@/lib/server/reads/collections';
import { contactOverview } from '@/lib/server/reads/contacts';
import { pageRuntime } from '@/lib/server/page-runtime';
import { notesForPage } from '@/lib/server/reads/annotations-page';
import { NotesCard } from '@/components/notes/notes-card';
import { Suspense } from 'react';
import { seesContactDetails } from '@/lib/server/contact-details';
import { prefetchList } from '../../collections/collections-view';

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const metadata: Metadata = { title: 'Contact' };

const notice =
  'mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100';

/**
 * `/contacts/{id}` (contract section 14): a contact, its totals per currency, and every collection of it the
 * index holds as the one list (filters, sort, columns, export, pages, "as of"). The contact id is the key:
 * a person's collections under several e-mails or phones are one page; other contact ids under the same
 * e-mail are offered apart.
 */
export default async function ContactPage({ params, searchParams }: Props) {
  const rt = await pageRuntime();
  const { id } = await params;
  if (!isContactId(id)) notFound();
  const context = await requestContext().catch(() => unauthorized());
  const path = contactPath(id);
  const state = readViewState(path, toSearchParams(await searchParams));
  const minorUnits = getConfig().amountMinorUnits;
  const head = await contactOverview(rt, context, id).catch((error: unknown) => toFailure(error, 'contact'));
  const heading = (title: string) => <h1 className="text-xl font-semibold tracking-tight">{title}</h1>;

  if (head && 'code' in head) {
    if (head.code === 'index_unavailable') {
      const status = await rt.index.status();
      return (
        <>
          {heading('Contact')}
          <EmptyState title="Contact pages need the search index, which is off">
            <p>{status.reason ?? head.message}</p>
            <p className="mt-2">
              A contact&apos;s collections are gathered by the index, never by paging through the API. Record pages
              still work live.
            </p>
          </EmptyState>
        </>
      );
    }
    answerPageWith(head.code);
    return (
      <>
        {heading('Contact')}
        <DetailError failure={head} />
      </>
    );
  }
  if (!head) notFound();

  const name = `${head.contact.firstName} ${head.contact.lastName}`.trim() || 'Contact';
  const [status, { count, rows }] = await Promise.all([
    rt.index.status(),
    prefetchList(path, state, () => collectionsPage(rt, context, state), { views: false }),
  ]);
  const reach = [head.contact.email, head.contact.phone].filter(Boolean).join(' · ');
  return (
    <>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          {heading(name)}
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{reach || 'No e-mail or phone'}</p>
          <p className="mt-1 flex items-center gap-1 text-sm text-zinc-600 dark:text-zinc-400">
            Contact ID <Copyable value={id} label="contact id" />
          </p>
        </div>
        <ExportCsv
          query={stateQuery(listStateSchema, { ...state, page: DEFAULT_PAGE, limit: DEFAULT_LIMIT })}
          filtered
          indexOn={status.state !== 'off'}
          count={count}
          contactsAllowed={seesContactDetails(context)}
          building={buildingOf(status)}
        />
      </div>
      {!head.linked ? (
        <p role="status" className={notice}>
          This index was written before contact pages: collections it has not seen since may be missing here until its
          next full scan completes.
        </p>
      ) : null}
      <section aria-labelledby="contact-totals" className="mb-4">
        <h2 id="contact-totals" className="mb-1 font-semibold">
          Totals
        </h2>
        <ContactTotals contactId={id} totals={head.totals} minorUnits={minorUnits} />
      </section>
      <div className="mb-4">
        <Suspense fallback={<p className="text-sm text-zinc-600 dark:text-zinc-400">Loading notes…</p>}>
          <ContactNotes id={id} />
        </Suspense>
      </div>
      {head.sameEmail.length ? (
        <section aria-labelledby="same-email" className="mb-4">
          <h2 id="same-email" className="mb-1 font-semibold">
            Same e-mail, other contact ids
          </h2>
          <p className="mb-1 text-sm text-zinc-600 dark:text-zinc-400">
            The upstream holds this e-mail under other contacts too (a person created again, or shared by a household).
          </p>
          <ul className="text-sm">
            {head.sameEmail.map((o) => (
              <li key={o.id}>
                <Link
                  href={contactPath(o.id)}
                  className="font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
                >
                  {`${o.firstName} ${o.lastName}`.trim() || o.id}
                </Link>{' '}
                <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{o.id}</span>
                <span className="text-zinc-600 dark:text-zinc-400">
                  {' '}
                  · {o.count} {o.count === 1 ? 'collection' : 'collections'}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <h2 className="mb-2 font-semibold">Collections</h2>
      <FilterBar state={state} facets={head.facets} minorUnits={minorUnits} path={path} />
      {status.state !== 'off' ? <FreshnessLine freshness={status} /> : null}
      {rows({
        caption: `Collections of ${name}`,
        matched: Boolean(state.q),
        empty: {
          title: 'No collections of this contact match these filters',
          body: 'Loosen a filter, or clear them all.',
        },
      })}
    </>
  );
}

/** The contact's notes and "Add a note" (section 16): shown on each of its collections too. */
async function ContactNotes({ id }: { id: string }) {
  const rt = await pageRuntime();
  const { notes, unavailable } = await notesForPage(rt, await requestContext(), { collection: null, contact: id });
  return (
    <NotesCard
      notes={notes}
      unavailable={unavailable}
      subject="contact"
      path={`/api/contacts/${encodeURIComponent(id)}/notes`}
    />
  );
}
