'use client';

import { useState, type ComponentType } from 'react';
import { Button } from '@/components/ui/button';
import type { Collection } from '@/lib/api/schemas';
import { statusMeaning } from '@/lib/format/labels';

type Panel = ComponentType<{ collection: Collection; onClose: () => void; minorUnits?: boolean }>;

/** "Watch" on the page of a collection still waiting (pending, on hold, processing: contract sections 1 and 9). */
export function WatchButton({ collection, minorUnits = false }: { collection: Collection; minorUnits?: boolean }) {
  // The watcher's code loads on the first click: most visits never watch.
  const [Panel, setPanel] = useState<Panel | 'loading' | null>(null);
  if (Panel === 'loading') return <span className="text-xs text-zinc-600 dark:text-zinc-400">Starting to watch…</span>;
  if (Panel) return <Panel collection={collection} onClose={() => setPanel(null)} minorUnits={minorUnits} />;
  if (statusMeaning(collection.status) !== 'waiting') return null;
  return (
    <Button
      onClick={() => {
        setPanel('loading');
        import('./watch-panel').then(
          (m) => setPanel(() => m.default),
          () => setPanel(null),
        );
      }}
    >
      Watch
    </Button>
  );
}
