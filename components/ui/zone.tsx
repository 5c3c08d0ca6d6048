'use client';

import { createContext, useContext } from 'react';

/**
 * The time zone times are shown in (an IANA name, or 'UTC'), for every time a page shows. Provided by the
 * Display preferences (components/display/display-provider.tsx), apart from them so a table's hundred times
 * re-render only when the zone changes; outside any provider, UTC.
 */
export const ZoneContext = createContext('UTC');

export const useZone = () => useContext(ZoneContext);
