'use client';

import Link from '@/components/account/account-scope';
import { useRouter } from '@/components/account/account-scope';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { focusRing } from '@/components/ui/button';
import { isShortcut } from '@/lib/keyboard/keys';
import { navigationStarted } from '@/lib/navigation/progress';
import { apiGet } from '@/lib/query/api-client';
import {
  moved,
  neighbours,
  pageApiUrl,
  parseTrail,
  position,
  TRAIL_KEY,
  type Neighbour,
  type Trail,
} from '@/lib/trail/trail';

const nf = new Intl.NumberFormat('en');
const noSubscribe = () => () => {};
const readRaw = () => {
  try {
    return sessionStorage.getItem(TRAIL_KEY);
  } catch {
    return null;
  }
};
const save = (trail: Trail) => {
  try {
    sessionStorage.setItem(TRAIL_KEY, JSON.stringify(trail));
  } catch {
    // storage off: the next page simply has no Previous / Next
  }
};

type Target = { id: string; trail: Trail } | 'loading' | null;

/** A neighbour on another page: that page read through the dashboard's API, its first or last row taken. */
function useNeighbour(trail: Trail | null, n: Neighbour): Target {
  const remote = n && 'page' in n ? n : null;
  const [found, setFound] = useState<{ key: string; target: Target }>({ key: '', target: null });
  const key = trail && remote ? `${pageApiUrl(trail, remote.page)}#${remote.take}` : '';
  useEffect(() => {
    if (!trail || !remote) return;
    const controller = new AbortController();
    apiGet<{ data: { id: string }[] }>(pageApiUrl(trail, remote.page), { signal: controller.signal })
      .then((body) => {
        const ids = body.data.map((c) => c.id);
        const id = remote.take === 'first' ? ids[0] : ids.at(-1);
        setFound({ key, target: id ? { id, trail: moved(trail, id, { page: remote.page, ids }) } : null });
      })
      .catch(() => {
        if (!controller.signal.aborted) setFound({ key, target: null });
      });
    return () => controller.abort();
    // The key names the page and the row taken.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  if (!trail || !n) return null;
  if ('id' in n) return { id: n.id, trail: moved(trail, n.id) };
  return found.key === key ? found.target : 'loading';
}

/**
 * "Previous" and "Next" with "12 of 253" on a collection opened from a list,
 * a filtered view or search results (and `k` / `j`); nothing otherwise.
 */
export function PrevNext({ id }: { id: string }) {
  const router = useRouter();
  const raw = useSyncExternalStore(noSubscribe, readRaw, () => null);
  const trail = parseTrail(raw);
  const at = position(trail, id);
  const near = trail && at ? neighbours(trail, id) : { previous: null, next: null };
  const previous = useNeighbour(at ? trail : null, near.previous);
  const next = useNeighbour(at ? trail : null, near.next);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (!isShortcut(event) || (event.key !== 'j' && event.key !== 'k')) return;
      const target = event.key === 'j' ? next : previous;
      if (!target || target === 'loading') return;
      event.preventDefault();
      save(target.trail);
      navigationStarted(`/collections/${target.id}`);
      router.push(`/collections/${target.id}`);
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [next, previous, router]);

  if (!trail || !at) return null;
  const control = (label: 'Previous' | 'Next', target: Target, keyHint: string) =>
    target && target !== 'loading' ? (
      <Link
        href={`/collections/${target.id}`}
        onClick={() => save(target.trail)}
        aria-keyshortcuts={keyHint}
        className={`rounded-md px-2 py-1 ring-1 ring-inset ring-zinc-300 hover:bg-zinc-50 dark:ring-zinc-700 dark:hover:bg-zinc-800 ${focusRing}`}
      >
        {label === 'Previous' ? <span aria-hidden="true">← </span> : null}
        {label}
        {label === 'Next' ? <span aria-hidden="true"> →</span> : null}
      </Link>
    ) : (
      <span
        aria-disabled="true"
        className="rounded-md px-2 py-1 text-zinc-400 ring-1 ring-inset ring-zinc-200 dark:text-zinc-600 dark:ring-zinc-800"
      >
        {label}
      </span>
    );

  return (
    <nav aria-label="Previous and next" className="flex items-center gap-2 text-sm">
      {control('Previous', previous, 'k')}
      <span className="tabular-nums text-zinc-700 dark:text-zinc-300">
        {nf.format(at.overall)} of {nf.format(trail.count)}
      </span>
      {control('Next', next, 'j')}
    </nav>
  );
}
