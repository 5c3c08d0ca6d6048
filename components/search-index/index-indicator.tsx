'use client';

import { useEffect, useState } from 'react';
import { Popover } from '@/components/ui/popover';
import { formatRelative, formatUtc } from '@/lib/format/dates';

type Status = {
  state: 'off' | 'building' | 'ready' | 'error';
  indexed: number;
  upstreamCount: number | null;
  coverage: number;
  lastFullScanAt: string | null;
  lastPollAt: string | null;
  error?: string;
  reason?: string;
};

const nf = new Intl.NumberFormat('en');
const DOT = { ready: 'bg-emerald-500', building: 'bg-amber-500', error: 'bg-red-600', off: 'bg-zinc-400' } as const;

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
 * opened. Polls while the index is building, and whenever it is open.
 */
export function IndexIndicator() {
  const [status, setStatus] = useState<Status | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout>;
    // A request still in flight when the panel opens or closes (or the page goes) is dropped, not left hanging.
    const controller = new AbortController();
    async function load() {
      try {
        const res = await fetch('/api/index/status', { signal: controller.signal });
        if (res.ok && !stop) setStatus(((await res.json()) as { data: Status }).data);
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

  const state = status?.state;
  const text = !status
    ? 'checking'
    : state === 'building'
      ? `building ${Math.floor(status.coverage * 100)}%`
      : state === 'error'
        ? 'error'
        : state;
  return (
    <Popover
      onOpenChange={setOpen}
      buttonClassName="rounded px-1 text-sm text-zinc-700 dark:text-zinc-300"
      panelClassName="left-0 w-72 text-sm"
      label={
        <>
          <span aria-hidden="true" className={`size-2 rounded-full ${state ? DOT[state] : 'bg-zinc-300'}`} />
          Search index: {text}
        </>
      }
    >
      {status ? (
        <>
          {status.reason ? <p className="mb-2 text-zinc-700 dark:text-zinc-300">{status.reason}</p> : null}
          <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1">
            <dt className="text-zinc-600 dark:text-zinc-400">Indexed</dt>
            <dd className="tabular-nums">
              {nf.format(status.indexed)}
              {status.upstreamCount !== null ? ` of ${nf.format(status.upstreamCount)}` : ''}
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
