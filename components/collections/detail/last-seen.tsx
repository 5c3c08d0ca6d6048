import type { ReactNode } from 'react';
import { statusBadge } from '@/components/ui/badge';
import { formatAmount } from '@/lib/format/money';
import { DateTime } from '@/components/ui/date-time';
import type { CollectionSummary } from '@/lib/api/summary';

/**
 * A collection as the index last saw it, beside the error of a live read that failed: what a support
 * agent needs to go on (status, amount, the contact as the reader may see it) with the time it was last seen, never passed
 * off as live.
 */
export function LastSeen({
  summary,
  seenAt,
  minorUnits,
}: {
  summary: CollectionSummary;
  seenAt: string;
  minorUnits: boolean;
}) {
  const { contact } = summary;
  const name = `${contact.firstName} ${contact.lastName}`.trim();
  const rows: [string, ReactNode][] = [
    ['Reference', summary.reference || '(none)'],
    ['Status', statusBadge(summary.status)],
    ['Amount', formatAmount(summary.amount, { minorUnits })],
    ['Contact', [name, contact.email, contact.phone].filter(Boolean).join(' · ') || '(none)'],
    ['Created', <DateTime key="created" iso={summary.createdAt} zone />],
    ['Updated', <DateTime key="updated" iso={summary.updatedAt} zone />],
  ];
  return (
    <section aria-labelledby="last-seen-heading" className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 id="last-seen-heading" className="text-base font-semibold">
        Last seen by the index, <DateTime iso={seenAt} seconds zone />
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        The index&apos;s copy from the last time the upstream showed this collection: it may have changed since.
      </p>
      <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-zinc-600 dark:text-zinc-400">{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
