'use client';

import { useRouter } from '@/components/account/account-scope';
import { startTransition, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { Collection } from '@/lib/api/schemas';
import { apiGet, isApiFailure } from '@/lib/query/api-client';
import { createWatcher, type Reading, type WatchState } from '@/lib/watch/watcher';
import { HistoryChanges, type HistoryEntry } from '@/components/collections/detail/history-card';

const MARK = '● Changed · ';

async function readCollection(id: string, signal: AbortSignal): Promise<Reading<Collection>> {
  try {
    const { data } = await apiGet<{ data: Collection }>(`/api/collections/${encodeURIComponent(id)}`, { signal });
    return { ok: true, record: data };
  } catch (error) {
    if (!isApiFailure(error)) throw error; // aborted: the watch stopped
    const { code, message, retryAfter } = error;
    return {
      ok: false,
      code,
      message,
      retryAfterS: retryAfter,
      final: code === 'not_found' || code === 'forbidden' || code === 'unauthorized' || code === 'upstream_auth',
    };
  }
}

/** Takes the change mark off the tab's title. */
function unmark(marked: { current: boolean }) {
  marked.current = false;
  if (document.title.startsWith(MARK)) document.title = document.title.slice(MARK.length);
}

const seconds = (ms: number) => Math.max(0, Math.round(ms / 1000));

/**
 * The watch itself, loaded on the first "Watch": the record re-read by the
 * watcher (lib/watch/watcher.ts), "Watching · checked 4 s ago", each change
 * listed and highlighted, announced politely, marked in the tab's title, and
 * the page's own figures refreshed. A notification only if asked for.
 */
export default function WatchPanel({
  collection,
  onClose,
  minorUnits = false,
}: {
  collection: Collection;
  onClose: () => void;
  minorUnits?: boolean;
}) {
  const router = useRouter();
  const [state, setState] = useState<WatchState<Collection> | null>(null);
  // What the History shows of the changes this watch saw (the index records each: contract section 14);
  // null while the index has none (off, or not yet written), when the fields' own diff is listed instead.
  const [seen, setSeen] = useState<{ at: number; entries: HistoryEntry[] } | null>(null);
  const [startedAt] = useState(() => new Date(Date.now() - 1000).toISOString());
  // The newest entry already shown (before any: when the watch began, on this browser's clock, a second
  // early): each change lists only what is newer.
  const shownUpTo = useRef<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [notify, setNotify] = useState<NotificationPermission | 'unsupported'>(() =>
    typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
  );
  const watcher = useRef<ReturnType<typeof createWatcher<Collection>> | null>(null);
  const marked = useRef(false);
  const announce = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    const w = createWatcher<Collection>({
      record: collection,
      read: (signal) => readCollection(collection.id, signal),
      clock: {
        now: Date.now,
        setTimeout: (fn, ms) => window.setTimeout(fn, ms),
        clearTimeout: (h) => window.clearTimeout(h as number),
      },
      onState: setState,
    });
    watcher.current = w;
    w.setHidden(document.hidden);
    w.start();
    const onVisibility = () => {
      w.setHidden(document.hidden);
      if (!document.hidden) unmark(marked);
    };
    document.addEventListener('visibilitychange', onVisibility);
    const tick = window.setInterval(() => setNow(Date.now()), 1000);
    return () => {
      w.stop();
      document.removeEventListener('visibilitychange', onVisibility);
      window.clearInterval(tick);
      unmark(marked);
    };
    // The record this watch started from; a new page is a new watch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [collection.id]);

  // Next sets the title again when the page refreshes: keep the mark on while it is wanted.
  useEffect(() => {
    const observer = new MutationObserver(() => {
      if (marked.current && !document.title.startsWith(MARK)) document.title = MARK + document.title;
    });
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, []);

  const changedAt = state?.changedAt ?? null;
  useEffect(() => {
    if (!changedAt || !state) return;
    const words = state.changes.map((c) => `${c.field} ${c.before} → ${c.after}`).join('; ');
    if (announce.current) announce.current.textContent = `Collection changed: ${words}`;
    if (!document.title.startsWith(MARK)) document.title = MARK + document.title;
    marked.current = true;
    if (document.hidden && notify === 'granted')
      new Notification(`${collection.reference || collection.id} changed`, { body: words, tag: collection.id });
    startTransition(() => router.refresh());
    const controller = new AbortController();
    // The read that saw the change is written to the index just after it answered: asked again a moment
    // later when the History has no entry yet.
    const look = async () => {
      for (let attempt = 0; attempt < 3 && !controller.signal.aborted; attempt++) {
        if (attempt) await new Promise((resolve) => setTimeout(resolve, 1000));
        const { data } = await apiGet<{ data: HistoryEntry[] }>(
          `/api/collections/${encodeURIComponent(collection.id)}/history`,
          { signal: controller.signal },
        );
        const since = data.filter((entry) => entry.seenAt > (shownUpTo.current ?? startedAt));
        if (since.length) {
          shownUpTo.current = since[0]!.seenAt; // newest first
          setSeen({ at: changedAt, entries: since });
          // The page's refresh above may have been rendered before the entry was written: the History
          // region shows what this list shows once it is there.
          startTransition(() => router.refresh());
          return;
        }
      }
    };
    look().catch(() => undefined); // no History (index off): the fields' diff stays
    return () => controller.abort();
    // Once per change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [changedAt]);

  if (!state) return null;
  const status =
    state.phase === 'watching'
      ? state.paused
        ? 'Watching · paused while this tab is hidden'
        : state.error
          ? `Watching · last check failed (${state.error}); next try in ${seconds((state.nextAt ?? now) - now)} s`
          : `Watching · ${state.lastCheckedAt ? `checked ${seconds(now - state.lastCheckedAt)} s ago` : 'first check in a few seconds'}`
      : state.reason === 'left-waiting'
        ? `Stopped watching: the status is now ${state.record.status}`
        : state.reason === 'time-limit'
          ? 'Stopped watching after 30 minutes'
          : state.reason === 'failed'
            ? `Stopped watching: ${state.error}`
            : 'Stopped watching';

  return (
    <div className="flex w-full flex-col gap-2 rounded-md border border-sky-200 bg-sky-50 p-2 text-sm sm:w-auto dark:border-sky-900 dark:bg-sky-950">
      <div className="flex flex-wrap items-center gap-2">
        <span className="tabular-nums">{status}</span>
        {state.phase === 'watching' ? (
          <Button onClick={() => watcher.current?.stop()} className="py-0.5 text-xs">
            Stop watching
          </Button>
        ) : (
          <Button onClick={onClose} className="py-0.5 text-xs">
            Close
          </Button>
        )}
        {state.phase === 'watching' && notify === 'default' ? (
          <Button onClick={async () => setNotify(await Notification.requestPermission())} className="py-0.5 text-xs">
            Notify me
          </Button>
        ) : null}
      </div>
      {state.changes.length && seen?.at === state.changedAt ? (
        <div>
          <p className="text-xs font-medium">
            Changed {state.changedAt ? `${seconds(now - state.changedAt)} s ago` : ''}, as the History shows it:
          </p>
          {seen.entries.map((entry) => (
            <HistoryChanges
              key={entry.seenAt}
              changes={entry.changes}
              minorUnits={minorUnits}
              className="mt-1 text-xs"
              label="What changed"
            />
          ))}
        </div>
      ) : state.changes.length ? (
        <div>
          <p className="text-xs font-medium">
            Changed {state.changedAt ? `${seconds(now - state.changedAt)} s ago` : ''}:
          </p>
          <ul className="mt-1 space-y-0.5 text-xs" aria-label="What changed">
            {state.changes.map((c) => (
              <li key={c.field}>
                <mark className="rounded bg-amber-200 px-1 text-zinc-950 dark:bg-amber-300">{c.field}</mark>{' '}
                <span className="break-all">
                  {c.before} → {c.after}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p ref={announce} aria-live="polite" className="sr-only" />
    </div>
  );
}
