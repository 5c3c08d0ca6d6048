'use client';

import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { ZoneContext } from '@/components/ui/zone';
import { displayCookie, displayZone, type Display } from '@/lib/display/preferences';

type DisplayState = { display: Display; setDisplay: (next: Display) => void };

const DisplayContext = createContext<DisplayState>({
  display: { density: 'comfortable', times: 'local', zone: null },
  setDisplay: () => {},
});

export const useDisplay = () => useContext(DisplayContext);

/**
 * The browser's display preferences (lib/display/preferences.ts), as the server
 * read them from the cookie. On a browser's first visit the server cannot know
 * the viewer's time zone: it renders UTC, and this provider then learns the
 * zone, re-renders the times in it and remembers it for every later page.
 */
const noSubscribe = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || null;

export function DisplayProvider({ initial, children }: { initial: Display; children: ReactNode }) {
  const [chosen, setState] = useState(initial);
  // The server renders with the zone the cookie remembers; the browser knows the real one.
  const zone = useSyncExternalStore(noSubscribe, browserZone, () => initial.zone);
  const display = { ...chosen, zone: zone ?? chosen.zone };

  // Remember the zone for the server's next render (a write to the cookie, nothing rendered).
  useEffect(() => {
    if (display.zone !== initial.zone) document.cookie = displayCookie(display);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the zone differs from the cookie's
  }, [display.zone, initial.zone]);

  function setDisplay(next: Display) {
    document.cookie = displayCookie(next);
    document.documentElement.dataset.density = next.density;
    setState(next);
  }

  return (
    <DisplayContext.Provider value={{ display, setDisplay }}>
      <ZoneContext.Provider value={displayZone(display)}>{children}</ZoneContext.Provider>
    </DisplayContext.Provider>
  );
}
