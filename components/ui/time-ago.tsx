import { formatRelative, formatUtc } from '@/lib/format/dates';

/**
 * How long ago ("3 hours ago"), where recency is the point (a watched record's
 * last change, "updated 4 min ago" beside an exact time), with the exact UTC
 * time on hover unless `bare` (a hint beside an exact time already shown). The
 * text depends on the clock, so server and browser may differ by a minute:
 * expected, not a hydration bug.
 */
export function TimeAgo({ iso, bare = false }: { iso: string; bare?: boolean }) {
  if (bare)
    return (
      <span suppressHydrationWarning className="whitespace-nowrap">
        {formatRelative(iso)}
      </span>
    );
  return (
    <time dateTime={iso} title={formatUtc(iso)} suppressHydrationWarning className="whitespace-nowrap">
      {formatRelative(iso)}
    </time>
  );
}
