'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { NAVIGATION_START, navigationStarted } from '@/lib/navigation/progress';

/** Longest a bar stays up without the URL changing (a navigation that failed, or was cancelled). */
const GIVE_UP_MS = 20_000;

/**
 * A thin bar at the top of the page from the moment a navigation starts until
 * the new URL is in place, so waiting on a slow upstream never looks like
 * nothing happened. It shows only after 150 ms (CSS): fast pages do not flash.
 * Starts: plain clicks on links to another page of the app (heard here), and
 * `navigationStarted()` from code that calls `router.push`.
 */
export function NavigationProgress() {
  const url = `${usePathname()}?${useSearchParams().toString()}`;
  const here = useRef(url);
  // The URL a navigation started from: once the URL differs, it has arrived (or its error page has).
  const [from, setFrom] = useState<string | null>(null);
  const started = from !== null && from === url ? from : null;

  useEffect(() => {
    here.current = url;
  }, [url]);

  useEffect(() => {
    const start = () => setFrom(here.current);
    function onClick(event: MouseEvent) {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!link || link.hasAttribute('download') || (link.getAttribute('target') ?? '_self') !== '_self') return;
      navigationStarted(link.getAttribute('href')!);
    }
    window.addEventListener(NAVIGATION_START, start);
    window.addEventListener('popstate', start);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener(NAVIGATION_START, start);
      window.removeEventListener('popstate', start);
      document.removeEventListener('click', onClick, true);
    };
  }, []);

  // Forgotten after a while either way: a navigation that failed or was cancelled, or one long arrived.
  useEffect(() => {
    if (from === null) return;
    const timer = setTimeout(() => setFrom(null), GIVE_UP_MS);
    return () => clearTimeout(timer);
  }, [from]);

  if (started === null) return null;
  return (
    <div role="progressbar" aria-label="Loading page" className="nav-progress">
      <span />
    </div>
  );
}
