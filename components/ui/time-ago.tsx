import { formatRelative, formatUtc } from '@/lib/format/dates';

/**
 * A timestamp as people read it ("3 hours ago") with the exact UTC time on
 * hover. The relative text depends on the clock, so server and browser may
 * differ by a minute: that difference is expected, not a hydration bug.
 */
export function TimeAgo({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatUtc(iso)} suppressHydrationWarning className="whitespace-nowrap">
      {formatRelative(iso)}
    </time>
  );
}
