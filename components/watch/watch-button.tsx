'use client';

import dynamic from 'next/dynamic';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import type { Collection } from '@/lib/api/schemas';

// The watcher's code loads on the first click: most visits never watch.
const WatchPanel = dynamic(() => import('./watch-panel'), {
  ssr: false,
  loading: () => <span className="text-xs text-zinc-600 dark:text-zinc-400">Starting to watch…</span>,
});

/** "Watch" on a pending collection's page (contract section 9). */
export function WatchButton({ collection }: { collection: Collection }) {
  const [watching, setWatching] = useState(false);
  if (!watching) {
    if (collection.status !== 'pending') return null;
    return <Button onClick={() => setWatching(true)}>Watch</Button>;
  }
  return <WatchPanel collection={collection} onClose={() => setWatching(false)} />;
}
