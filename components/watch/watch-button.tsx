'use client';

import { useState, type ComponentType } from 'react';
import { Button } from '@/components/ui/button';
import type { Collection } from '@/lib/api/schemas';

type Panel = ComponentType<{ collection: Collection; onClose: () => void }>;

/** "Watch" on a pending collection's page (contract section 9). */
export function WatchButton({ collection }: { collection: Collection }) {
  // The watcher's code loads on the first click: most visits never watch.
  const [Panel, setPanel] = useState<Panel | 'loading' | null>(null);
  if (Panel === 'loading') return <span className="text-xs text-zinc-600 dark:text-zinc-400">Starting to watch…</span>;
  if (Panel) return <Panel collection={collection} onClose={() => setPanel(null)} />;
  if (collection.status !== 'pending') return null;
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
