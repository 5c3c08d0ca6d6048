import type { Freshness } from './freshness';

/** What the shell's indicator shows of /api/index/status (a subset): the freshness line's, and the sync's times. */
export type IndicatorStatus = Freshness & {
  lastFullScanAt: string | null;
  lastPollAt: string | null;
  error?: string;
};

const DOT = { ready: 'bg-emerald-500', building: 'bg-amber-500', error: 'bg-red-600', off: 'bg-zinc-400' } as const;

export const INDICATOR_BUTTON = 'rounded px-1 text-sm text-zinc-700 dark:text-zinc-300';

/** "Search index: ready" (building n% / error / off), with its coloured dot: the same before and after the control loads. */
export function indicatorLabel(status: IndicatorStatus | null) {
  const state = status?.state;
  const text = !status
    ? 'checking'
    : state === 'building'
      ? `building ${Math.floor(status.coverage * 100)}%`
      : state === 'error'
        ? 'error'
        : state;
  return (
    <>
      <span aria-hidden="true" className={`size-2 rounded-full ${state ? DOT[state] : 'bg-zinc-300'}`} />
      {/* Said in full to everyone; shown in full where the header has room. */}
      <span className="max-xl:sr-only">Search index: </span>
      {text}
    </>
  );
}
