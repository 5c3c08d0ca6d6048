'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from '@/components/account/account-scope';
import { useRouter } from '@/components/account/account-scope';
import { useState } from 'react';
import { Button, focusRing } from '@/components/ui/button';
import type { DeferredProps } from '@/components/ui/deferred';
import { Popover } from '@/components/ui/popover';
import { useZone } from '@/components/ui/zone';
import type { ApiFailure } from '@/lib/api/failure';
import { collectionsHref } from '@/lib/api/list-state';
import { NO_VIEW, stateViewQuery, viewChanged, viewUrl, type SavedView } from '@/lib/api/views';
import { formatDateTime } from '@/lib/format/dates';
import { apiGet } from '@/lib/query/api-client';
import {
  changeView,
  deleteView,
  saveView,
  viewsQueryKey,
  VIEWS_BUTTON,
  type ViewsAnswer,
  type ViewsMenuProps,
} from './views-api';
import { ViewNameForm } from './view-name-form';

type Counted = SavedView & { count?: number | null; asOf?: string | null };

const nf = new Intl.NumberFormat('en');
const item = `flex items-center justify-between gap-3 rounded px-1.5 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800 ${focusRing}`;

/**
 * "Views" (contract section 13): the reader's views and the team's shared ones with their counts, and what
 * can be done with the view open: save the list as a view, update it, rename, delete, share, pin, make it
 * the default. Loaded at first use (views-control.tsx draws its button).
 */
export default function ViewsMenu({ state, columns, view, initialOpen, focusOnMount }: ViewsMenuProps & DeferredProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const zone = useZone();
  const [open, setOpen] = useState(Boolean(initialOpen));
  const [form, setForm] = useState<'save' | 'rename' | 'delete' | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const views = useQuery({
    queryKey: viewsQueryKey,
    queryFn: ({ signal }) => apiGet<ViewsAnswer<Counted[]>>('/api/views?counts=1', { signal }),
    enabled: open,
  });
  const all = views.data?.data ?? [];
  const meta = views.data?.meta;
  const current = view ? (all.find((v) => v.id === view.id) ?? view) : null;
  const changed = current ? viewChanged(current, state, columns) : false;

  /** Runs a change; on success refreshes the list of views and goes where `then` says. */
  async function run<T>(change: () => Promise<T>, then: (result: T) => void) {
    setBusy(true);
    setError(null);
    try {
      const result = await change();
      await queryClient.invalidateQueries({ queryKey: viewsQueryKey });
      setForm(null);
      then(result);
    } catch (failure) {
      setError((failure as ApiFailure).message ?? 'The change was not saved');
    } finally {
      setBusy(false);
    }
  }

  const fields = () => ({ query: stateViewQuery(state), columns: [...columns], limit: state.limit });
  const mine = all.filter((v) => v.mine);
  const team = all.filter((v) => !v.mine);
  const asOf = all
    .map((v) => v.asOf)
    .filter((a): a is string => Boolean(a))
    .sort()
    .at(-1);

  return (
    <Popover
      label="Views"
      open={open}
      onOpenChange={setOpen}
      focusOnMount={focusOnMount}
      buttonClassName={VIEWS_BUTTON}
      panelClassName="right-0 w-80 space-y-3 text-sm"
    >
      {current ? (
        <section aria-label="This view" className="space-y-1.5">
          <p>
            <span className="font-medium">{current.name}</span>
            <span className="text-zinc-600 dark:text-zinc-400">
              {current.mine
                ? current.shared
                  ? ' · shared with everyone'
                  : ' · yours'
                : ` · shared by ${current.owner}`}
              {changed ? ' · changed, not saved' : ''}
            </span>
          </p>
          <div className="flex flex-wrap gap-1.5">
            {current.mine && changed ? (
              <Button
                disabled={busy}
                onClick={() =>
                  run(
                    () => changeView(current.id, fields()),
                    () => router.refresh(),
                  )
                }
              >
                Update view
              </Button>
            ) : null}
            {current.mine ? (
              <>
                <Button disabled={busy} onClick={() => setForm('rename')}>
                  Rename view
                </Button>
                <Button disabled={busy} onClick={() => setForm('delete')}>
                  Delete view
                </Button>
              </>
            ) : null}
            <Button
              disabled={busy}
              aria-pressed={current.isDefault}
              onClick={() =>
                run(
                  () => changeView(current.id, { default: !current.isDefault }),
                  () => router.refresh(),
                )
              }
            >
              {current.isDefault ? 'Unset my default' : 'Set as my default'}
            </Button>
            {current.mine && meta?.canShare ? (
              <Button
                disabled={busy}
                onClick={() =>
                  run(
                    () => changeView(current.id, { shared: !current.shared }),
                    () => router.refresh(),
                  )
                }
              >
                {current.shared ? 'Stop sharing' : 'Share with everyone'}
              </Button>
            ) : null}
            {current.shared && meta?.canShare ? (
              <Button
                disabled={busy}
                onClick={() =>
                  run(
                    () => changeView(current.id, { pinned: current.pinned === null }),
                    () => router.refresh(),
                  )
                }
              >
                {current.pinned === null ? 'Pin to navigation' : 'Unpin from navigation'}
              </Button>
            ) : null}
          </div>
          {form === 'rename' ? (
            <ViewNameForm
              initialName={current.name}
              submitLabel="Save name"
              canShare={false}
              busy={busy}
              error={error}
              onSubmit={(name) =>
                run(
                  () => changeView(current.id, { name }),
                  () => router.refresh(),
                )
              }
              onCancel={() => setForm(null)}
            />
          ) : null}
          {form === 'delete' ? (
            <div role="group" aria-label="Delete this view" className="space-y-1.5">
              <p>Delete “{current.name}”? This cannot be undone.</p>
              <div className="flex gap-2">
                <Button
                  variant="primary"
                  disabled={busy}
                  onClick={() =>
                    run(
                      () => deleteView(current.id),
                      () => router.push(collectionsHref(state, new URLSearchParams({ view: NO_VIEW }))),
                    )
                  }
                >
                  Delete
                </Button>
                <Button onClick={() => setForm(null)}>Cancel</Button>
              </div>
            </div>
          ) : null}
        </section>
      ) : null}

      {form === 'save' ? (
        <ViewNameForm
          initialName={current && !current.mine ? `Copy of ${current.name}` : ''}
          submitLabel="Save"
          canShare={Boolean(meta?.canShare)}
          busy={busy}
          error={error}
          onSubmit={(name, shared) =>
            run(
              () => saveView({ name, shared, ...fields() }),
              (saved) => router.push(viewUrl(saved)),
            )
          }
          onCancel={() => setForm(null)}
        />
      ) : (
        <Button variant="primary" disabled={busy} onClick={() => (setError(null), setForm('save'))}>
          {current && !current.mine ? 'Save as' : 'Save view'}
        </Button>
      )}
      {error && form !== 'save' && form !== 'rename' ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}

      {views.isError ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {(views.error as unknown as ApiFailure).message ?? 'The views could not be read'}{' '}
          <button type="button" className={`underline ${focusRing}`} onClick={() => void views.refetch()}>
            Retry
          </button>
        </p>
      ) : views.isPending ? (
        <p aria-busy="true" className="text-zinc-600 dark:text-zinc-400">
          Loading views…
        </p>
      ) : (
        <>
          <ViewList title="Your views" views={mine} empty="No views saved yet." />
          <ViewList title="Shared with the team" views={team} empty="No shared views yet." owners />
          {asOf ? (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">Counts as of {formatDateTime(asOf, zone)}</p>
          ) : null}
          {meta?.openAccess ? (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              No sign-in here: every view belongs to one shared owner, “anyone”, and everyone who opens this dashboard
              sees and changes them.
            </p>
          ) : null}
        </>
      )}
      {current || meta?.defaultId ? (
        <Link
          href={`/collections?view=${NO_VIEW}`}
          className={`block text-sky-800 underline dark:text-sky-300 ${focusRing}`}
        >
          All collections, no view
        </Link>
      ) : null}
    </Popover>
  );
}

function ViewList({
  title,
  views,
  empty,
  owners = false,
}: {
  title: string;
  views: Counted[];
  empty: string;
  owners?: boolean;
}) {
  return (
    <section aria-label={title}>
      <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{title}</h3>
      {views.length ? (
        <ul className="max-h-60 overflow-y-auto">
          {views.map((v) => (
            <li key={v.id}>
              <Link href={viewUrl(v)} className={item}>
                <span className="min-w-0 truncate">
                  {v.name}
                  {v.isDefault ? <span className="text-zinc-600 dark:text-zinc-400"> · default</span> : null}
                  {owners ? (
                    <span className="block truncate text-xs text-zinc-600 dark:text-zinc-400">{v.owner}</span>
                  ) : null}
                  {!owners && v.shared ? <span className="text-zinc-600 dark:text-zinc-400"> · shared</span> : null}
                </span>
                <span className="shrink-0 tabular-nums text-zinc-600 dark:text-zinc-400">
                  {typeof v.count === 'number' ? nf.format(v.count) : ''}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-zinc-600 dark:text-zinc-400">{empty}</p>
      )}
    </section>
  );
}
