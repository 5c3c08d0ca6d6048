'use client';

import type { ReactNode } from 'react';
import { idsFromHrefs, TRAIL_KEY } from '@/lib/trail/record';
import type { Trail } from '@/lib/trail/trail';

const LINK = 'a[href^="/collections/pay_"]';

/**
 * Wraps a page of rows (the list, a filtered view, search results): opening
 * a collection from it remembers the view for this tab, so the collection's
 * page can offer Previous and Next (components/trail/prev-next.tsx).
 */
export function TrailRecorder({ children, ...view }: Omit<Trail, 'ids' | 'active'> & { children: ReactNode }) {
  function remember(event: { target: EventTarget }) {
    const target = event.target as HTMLElement;
    // A row opens from anywhere on it (the list's own handler): its link says which record.
    const link = target.closest?.(LINK) ?? target.closest?.('tr')?.querySelector(LINK);
    const root = target.closest?.('[data-trail]');
    if (!link || !root) return;
    const ids = idsFromHrefs([...root.querySelectorAll(LINK)].map((a) => a.getAttribute('href')!));
    const active = idsFromHrefs([link.getAttribute('href')!])[0];
    if (!active) return;
    try {
      sessionStorage.setItem(TRAIL_KEY, JSON.stringify({ ...view, ids, active } satisfies Trail));
    } catch {
      // storage off: the detail page simply has no Previous / Next
    }
  }
  return (
    <div data-trail="" onClickCapture={remember} onAuxClickCapture={remember}>
      {children}
    </div>
  );
}
