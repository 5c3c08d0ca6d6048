'use client';

import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { readViewState, viewHref, type ListPath, type ListState } from '@/lib/api/list-state';

/**
 * The list's state (page and limit, and on `/collections` the filters, sort and search), kept in the URL. Read with useSearchParams and
 * written with history.pushState, which Next.js syncs into its router (shallow
 * routing: no server round trip; back and forward included).
 *
 * Next applies a pushState in a transition that re-renders the whole route
 * (measured here: rows 105 ms after the click, against 61 ms with nuqs). So the
 * new state is held locally until the URL has caught up, and the URL is pushed
 * after the next paint: the table renders the next page (already in the cache)
 * at once. If the URL moves anywhere else meanwhile (back, forward, a link),
 * the URL wins.
 */
export function useListState(path: ListPath): [ListState, (next: ListState) => void] {
  // Compared by their canonical URL, so every field of the schema counts.
  const same = (a: ListState, b: ListState) => viewHref(path, a) === viewHref(path, b);
  const url = readViewState(path, useSearchParams());
  const [pending, setPending] = useState<{ next: ListState; from: ListState } | null>(null);
  if (pending && !same(url, pending.from)) setPending(null); // caught up, or moved elsewhere

  function set(next: ListState) {
    setPending({ next, from: pending?.from ?? url });
    const href = viewHref(path, next, new URLSearchParams(window.location.search));
    // After the next paint: the new rows first, the router's re-render after them.
    requestAnimationFrame(() => setTimeout(() => window.history.pushState(null, '', href)));
  }

  return [pending?.next ?? url, set];
}
