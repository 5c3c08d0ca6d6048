'use client';

import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import type { ListParams } from '@/lib/api/params';
import { collectionsHref, listParamsFrom } from '@/lib/query/list-params';

const same = (a: ListParams, b: ListParams) => a.page === b.page && a.limit === b.limit;

/**
 * The table's page and limit, kept in the URL. Read with useSearchParams and
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
export function useListParams(): [ListParams, (next: ListParams) => void] {
  const url = listParamsFrom(useSearchParams());
  const [pending, setPending] = useState<{ next: ListParams; from: ListParams } | null>(null);
  if (pending && !same(url, pending.from)) setPending(null); // caught up, or moved elsewhere

  function set(next: ListParams) {
    setPending({ next, from: pending?.from ?? url });
    const href = collectionsHref(next, new URLSearchParams(window.location.search));
    // After the next paint: the new rows first, the router's re-render after them.
    requestAnimationFrame(() => setTimeout(() => window.history.pushState(null, '', href)));
  }

  return [pending?.next ?? url, set];
}
