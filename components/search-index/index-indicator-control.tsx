'use client';

import { useEffect, useState } from 'react';
import { Popover } from '@/components/ui/popover';
import { apiGet } from '@/lib/query/api-client';
import { formatRelative, formatUtc } from '@/lib/format/dates';
import { DateTime } from '@/components/ui/date-time';

import type { DeferredProps } from '@/components/ui/deferred';
import { indicatorLabel, INDICATOR_BUTTON, type IndicatorStatus as Status } from './index-indicator-label';
import { indexedCount } from './freshness';

function when(iso: string | null) {
  return iso ? (
    <time dateTime={iso} title={formatUtc(iso)}>
      {formatRelative(iso)}
    </time>
  ) : (
    'never'
  );
}

/**
 * The shell's "Search index" control: the index's state at a glance (ready /
 * building n% / error / off), and its details from /api/index/status when
 * opened. Polls while the index is building, and whenever it is open. Loaded at
 * first use or a while after the page (index-indicator.tsx), from the state the server rendered.
 */
export default function IndexIndicatorControl({
  initial,
  initialOpen = false,
  focusOnMount = false,
}: { initial: Status | null } & DeferredProps) {
  const [status, setStatus] = useState<Status | null>(initial);
  const [open, setOpen] = useState(initialOpen);

  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout>;
    // A request still in flight when the panel opens or closes (or the page goes) is dropped, not left hanging.
    const controller = new AbortController();
    async function load() {
      try {
        const { data } = await apiGet<{ data: Status }>('/api/index/status', { signal: controller.signal });
        if (!stop) setStatus(data);
      } catch {
        // Offline for a moment: the last known state stays.
      }
    }
    async function loop() {
      await load();
      if (!stop) timer = setTimeout(loop, open ? 5_000 : 30_000);
    }
    void loop();
    return () => {
      stop = true;
      clearTimeout(timer);
      controller.abort();
    };
  }, [open]);

  return (
    <Popover
      onOpenChange={setOpen}
      initialOpen={initialOpen}
      focusOnMount={focusOnMount}
      buttonClassName={INDICATOR_BUTTON}
      panelClassName="left-0 w-72 text-sm"
      label={indicatorLabel(status)}
    >
      {status ? (
        <>
          {status.reason ? <p className="mb-2 text-zinc-700 dark:text-zinc-300">{status.reason}</p> : null}
          <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1">
            <dt className="text-zinc-600 dark:text-zinc-400">Indexed</dt>
            <dd className="tabular-nums">
              {indexedCount(status)}
              {/* The figures are one reading of the index; the list's count line may be another's. */}
              {status.countedAt ? (
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                  as of <DateTime iso={status.countedAt} seconds short />
                </span>
              ) : null}
            </dd>
            <dt className="text-zinc-600 dark:text-zinc-400">Last full scan</dt>
            <dd>{when(status.lastFullScanAt)}</dd>
            <dt className="text-zinc-600 dark:text-zinc-400">Last poll</dt>
            <dd>{when(status.lastPollAt)}</dd>
            {status.error ? (
              <>
                <dt className="text-zinc-600 dark:text-zinc-400">Error</dt>
                <dd className="font-mono text-xs">{status.error}</dd>
              </>
            ) : null}
          </dl>
        </>
      ) : (
        <p>Checking the index…</p>
      )}
    </Popover>
  );
}
