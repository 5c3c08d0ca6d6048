'use client';

import { useEffect } from 'react';

/**
 * What a page says to screen readers as it arrives (issue 75: a search's results announced while focus
 * stays in the box). The live region is the shell's, there before any navigation, so a change in it is
 * read; a region that arrives with its page would not be.
 */
const ANNOUNCER_ID = 'page-announcer';

export function Announcer() {
  return <div id={ANNOUNCER_ID} role="status" aria-live="polite" aria-atomic="true" className="sr-only" />;
}

export function Announce({ text }: { text: string }) {
  useEffect(() => {
    const region = document.getElementById(ANNOUNCER_ID);
    if (!region) return;
    // Emptied first, then said: the same words twice (the same search again) are read again.
    region.textContent = '';
    const timer = setTimeout(() => (region.textContent = text), 100);
    return () => clearTimeout(timer);
  }, [text]);
  return null;
}
