'use client';

import { Deferred } from '@/components/ui/deferred';
import { indicatorLabel, INDICATOR_BUTTON, type IndicatorStatus } from './index-indicator-label';

const load = () => import('./index-indicator-control').then((m) => m.default);

/**
 * The shell's "Search index" button, from the state the server rendered. Its control
 * (index-indicator-control.tsx: the details, the polling) loads at first use, or after a few
 * seconds while the index is building and half a minute otherwise, and keeps the label current from then.
 */
export function IndexIndicator({ initial }: { initial: IndicatorStatus | null }) {
  return (
    <Deferred
      load={load}
      props={{ initial }}
      label={indicatorLabel(initial)}
      buttonClassName={INDICATOR_BUTTON}
      idleMs={initial?.state === 'building' || !initial ? 3_000 : 30_000}
    />
  );
}
