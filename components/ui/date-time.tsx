'use client';

import { useZone } from './zone';
import { formatDateTime, formatUtc, yearIn, zoneName } from '@/lib/format/dates';

/**
 * An exact time, "30 Jun 2025, 14:05", in the viewer's time zone (or UTC, a
 * display setting), with the exact UTC time on hover: support agents match
 * times from tickets. `seconds` and `zone` for a record's own timestamps.
 */
export function DateTime({
  iso,
  seconds = false,
  zone = false,
  short = false,
}: {
  iso: string;
  seconds?: boolean;
  zone?: boolean;
  /** Leave out the year of dates in the current one (a table column: "20 Nov, 16:45"). */
  short?: boolean;
}) {
  const timeZone = useZone();
  return (
    <time dateTime={iso} title={formatUtc(iso)} className="whitespace-nowrap tabular-nums">
      {formatDateTime(iso, timeZone, seconds, short ? yearIn(timeZone) : undefined)}
      {zone ? (
        <>
          {' '}
          <span className="text-xs text-zinc-600 dark:text-zinc-400">{zoneName(timeZone, Date.parse(iso))}</span>
        </>
      ) : null}
    </time>
  );
}
