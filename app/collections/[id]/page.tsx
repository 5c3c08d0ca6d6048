import type { Metadata } from 'next';
import { BackToList } from '@/components/collections/detail/back-to-list';
import { CollectionHeader } from '@/components/collections/detail/collection-header';
import { ContactCard } from '@/components/collections/detail/contact-card';
import { EventsCard } from '@/components/collections/detail/events-card';
import { ExtraFields } from '@/components/ui/extra-fields';
import { FollowUpCard } from '@/components/collections/detail/follow-up-card';
import { LineItems } from '@/components/collections/detail/line-items';
import { PayableCard } from '@/components/collections/detail/payable-card';
import { JsonView } from '@/components/ui/json-view';
import { RecordActions } from '@/components/recent/record-actions';
import { WatchButton } from '@/components/watch/watch-button';
import { PrevNext } from '@/components/trail/prev-next';
import { formatAmount } from '@/lib/format/money';
import { noteInput } from '@/lib/support/note';
import { RecordError } from '@/components/ui/record-error';
import { getConfig } from '@/lib/server/env';
import { readRecord, recordForPage } from '@/lib/server/reads/record-page';
import { historyForPage, lastSeenCollection } from '@/lib/server/reads/collections';
import { HistoryCard } from '@/components/collections/detail/history-card';
import { Suspense } from 'react';
import { requestContext } from '@/lib/server/context';
import { LastSeen } from '@/components/collections/detail/last-seen';
import { label } from '@/lib/format/labels';
import { isContactId } from '@/lib/api/ids';
import { contactPath } from '@/lib/api/list-state';
import { contactCount } from '@/lib/server/reads/contacts';
import Link from '@/components/account/account-scope';
import { pageRuntime } from '@/lib/server/page-runtime';
import { annotationEvents, notesForPage, tagsForPage } from '@/lib/server/reads/annotations-page';
import { NotesCard } from '@/components/notes/notes-card';
import { EditTagsControl } from '@/components/tags/edit-tags-control';
import { TagList } from '@/components/tags/tag-chip';
import { seesContactDetails } from '@/lib/server/contact-details';

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const result = await readRecord(await pageRuntime(), 'collection', id);
  return { title: result.ok ? `${result.data.reference || id} · Collection` : 'Collection' };
}

/**
 * Fetched in full before anything streams, so an unknown id is a real 404 and
 * another account's id a real 403; a malformed id never reaches the upstream.
 */
export default async function CollectionPage({ params }: Props) {
  const rt = await pageRuntime();
  const { id } = await params;
  const result = await recordForPage(rt, 'collection', id);
  const { amountMinorUnits } = getConfig();
  if (!result.ok) {
    // The upstream failed: the index's last copy, when it has one, beside the error.
    const seen = await lastSeenCollection(rt, await requestContext(), id);
    return (
      <RecordError
        noun="Collection"
        id={id}
        path={`/collections/${id}`}
        failure={result.failure}
        before={<BackToList />}
        after={seen ? <LastSeen {...seen} minorUnits={amountMinorUnits} /> : null}
      />
    );
  }

  const c = result.data;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-4">
          <BackToList />
          <PrevNext id={c.id} />
        </div>
        <RecordActions
          record={{
            kind: 'collection',
            id: c.id,
            label: c.reference || c.id,
            detail: `${label(c.status).text} · ${formatAmount(c.amount, { minorUnits: amountMinorUnits })}`,
          }}
          note={noteInput(c)}
          minorUnits={amountMinorUnits}
        >
          <WatchButton collection={c} minorUnits={amountMinorUnits} />
        </RecordActions>
      </div>
      <CollectionHeader collection={c} minorUnits={amountMinorUnits} />
      <Suspense fallback={<p className="min-h-8 text-sm text-zinc-600 dark:text-zinc-400">Loading tags…</p>}>
        <RecordTags id={c.id} />
      </Suspense>
      <div className="grid gap-4 lg:grid-cols-2">
        <ContactCard contact={c.contact} masked={!seesContactDetails(await requestContext())}>
          {isContactId(c.contact.id) ? (
            <Suspense fallback={null}>
              <ContactLink id={c.contact.id} />
            </Suspense>
          ) : null}
        </ContactCard>
        <PayableCard payable={c.payable} />
      </div>
      <Suspense fallback={<p className="text-sm text-zinc-600 dark:text-zinc-400">Loading notes…</p>}>
        <RecordNotes id={c.id} contact={isContactId(c.contact.id) ? c.contact.id : null} />
      </Suspense>
      <LineItems items={c.metadata} amount={c.amount} minorUnits={amountMinorUnits} />
      <div className="grid gap-4 lg:grid-cols-2">
        <FollowUpCard followUp={c.followUp} />
        <EventsCard events={c.events} />
      </div>
      <Suspense fallback={<p className="text-sm text-zinc-600 dark:text-zinc-400">Loading history…</p>}>
        <History id={c.id} contact={isContactId(c.contact.id) ? c.contact.id : null} minorUnits={amountMinorUnits} />
      </Suspense>
      <ExtraFields record={c} kind="collection" />
      <JsonView value={c} filename={`${c.id}.json`} />
    </div>
  );
}

/** The record's History from the index, streamed after the record (it never holds the page). */
async function History({ id, contact, minorUnits }: { id: string; contact: string | null; minorUnits: boolean }) {
  const rt = await pageRuntime();
  const context = await requestContext();
  const [history, annotations] = await Promise.all([
    historyForPage(rt, context, id),
    annotationEvents(rt, context, id, contact),
  ]);
  return (
    <HistoryCard
      annotations={annotations}
      entries={history?.entries ?? null}
      since={history?.since ?? null}
      retentionDays={getConfig().index.historyRetentionDays}
      minorUnits={minorUnits}
    />
  );
}

/** The record's tags and "Edit tags" (section 16), streamed after the record. */
async function RecordTags({ id }: { id: string }) {
  const rt = await pageRuntime();
  const tags = await tagsForPage(rt, await requestContext(), id);
  if (!tags) return <p className="text-sm text-zinc-600 dark:text-zinc-400">Tags are not available right now.</p>;
  return (
    <div className="flex min-h-8 flex-wrap items-center gap-2">
      <span className="text-sm font-medium">Tags</span>
      {tags.held.length ? (
        <TagList tags={tags.held} label="Tags of this collection" />
      ) : (
        <span className="text-sm text-zinc-600 dark:text-zinc-400">None</span>
      )}
      <EditTagsControl id={id} vocabulary={tags.vocabulary} held={tags.held.map((t) => t.name)} />
    </div>
  );
}

/** The record's notes and its contact's, and "Add a note" (section 16), streamed after the record. */
async function RecordNotes({ id, contact }: { id: string; contact: string | null }) {
  const rt = await pageRuntime();
  const { notes, unavailable } = await notesForPage(rt, await requestContext(), { collection: id, contact });
  return (
    <NotesCard
      notes={notes}
      unavailable={unavailable}
      subject="collection"
      path={`/api/collections/${encodeURIComponent(id)}/notes`}
    />
  );
}

/** "All collections for this contact (N)": the contact's page, with the index's count (streamed in). */
async function ContactLink({ id }: { id: string }) {
  const rt = await pageRuntime();
  const count = await contactCount(rt, await requestContext(), id);
  if (!count) return null;
  return (
    <p className="mt-3 text-sm">
      <Link
        href={contactPath(id)}
        className="font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
      >
        All collections for this contact ({count.toLocaleString('en')})
      </Link>
    </p>
  );
}
