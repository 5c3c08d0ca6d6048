import { StatusBadge } from '@/components/ui/badge';
import { DateTime } from '@/components/ui/date-time';
import { EmptyState } from '@/components/ui/empty-state';
import { Section } from '@/components/ui/section';
import { label } from '@/lib/format/labels';
import { formatAmount } from '@/lib/format/money';
import type { AnnotationEvent } from '@/lib/api/annotations';

export type HistoryEntry = {
  seenAt: string;
  notSeenBefore: string;
  changes: { field: string; from?: unknown; to?: unknown }[];
};

const FIELD: Record<string, string> = {
  status: 'Status',
  amount: 'Amount',
  updatedAt: 'Updated',
  completedAt: 'Completed',
  expiresIn: 'Expires in',
  followUp: 'Follow-up',
  payable: 'Payable',
  lineItems: 'Line items',
  type: 'Type',
  contact: 'Contact',
};

type Amount = { value: number; currency: string };
type FollowUp = { enabled: boolean; channels: string[]; startAfter?: number; cadence?: string; tone?: string };
type Payable = { enabled?: boolean; methods: string[]; optionsCount?: number };

/** One side of a change, in words: the value as the API gives it (units never invented). */
function side(field: string, value: unknown, minorUnits: boolean) {
  if (value === null || value === undefined) return <span className="text-zinc-600 dark:text-zinc-400">none</span>;
  if (field === 'status') return <StatusBadge status={String(value)} />;
  if (field === 'amount') return formatAmount(value as Amount, { minorUnits });
  if (field === 'updatedAt' || field === 'completedAt') return <DateTime iso={String(value)} seconds />;
  if (field === 'type') return label(String(value)).text;
  if (field === 'followUp') {
    const f = value as FollowUp;
    const how = [
      f.channels.map((c) => label(c).text).join(', '),
      f.cadence && label(f.cadence).text,
      f.tone && label(f.tone).text,
    ];
    return `${f.enabled ? 'on' : 'off'}${how.filter(Boolean).length ? ` (${how.filter(Boolean).join(' · ')})` : ''}${f.startAfter !== undefined ? `, starts after ${f.startAfter}` : ''}`;
  }
  if (field === 'payable') {
    const p = value as Payable;
    const parts = [p.methods.map((m) => label(m).text).join(', ') || 'no methods'];
    if (p.optionsCount !== undefined) parts.push(`${p.optionsCount} ${p.optionsCount === 1 ? 'option' : 'options'}`);
    return `${p.enabled === false ? 'off' : p.enabled ? 'on' : ''}${p.enabled !== undefined ? ': ' : ''}${parts.join(', ')}`;
  }
  if (field === 'lineItems') {
    const l = value as { count: number; totals: Amount[] };
    return `${l.count} ${l.count === 1 ? 'item' : 'items'}${l.totals.length ? ` (${l.totals.map((t) => formatAmount(t, { minorUnits })).join(', ')})` : ''}`;
  }
  return String(value);
}

/** One history entry's changes, each field from → to (the History section, and a watch that saw them). */
export function HistoryChanges({
  changes,
  minorUnits,
  className = '',
  label,
}: {
  changes: HistoryEntry['changes'];
  minorUnits: boolean;
  className?: string;
  label?: string;
}) {
  return (
    <ul className={`space-y-1 ${className}`} aria-label={label}>
      {changes.map((change) => (
        <li key={change.field} className="flex flex-wrap items-center gap-1.5">
          <span className="font-medium">{FIELD[change.field] ?? change.field}</span>
          {change.field === 'contact' ? (
            <span>changed (its details are not kept)</span>
          ) : (
            <>
              {side(change.field, change.from, minorUnits)}
              <span aria-hidden="true">→</span>
              <span className="sr-only">to</span>
              {side(change.field, change.to, minorUnits)}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** What the team did, in words: a note added or deleted, a tag put on or taken off, and who. */
function annotationLine(event: AnnotationEvent) {
  if (!('tag' in event)) {
    const whose = event.on === 'contact' ? 'Contact’s note' : 'Note';
    return `${whose} ${event.kind === 'note_add' ? 'added' : 'deleted'} by ${event.by}`;
  }
  return `Tag ${event.tag} ${event.kind === 'tag_apply' ? 'put on' : 'taken off'} by ${event.by}`;
}

type Item = { at: string; entry: HistoryEntry } | { at: string; event: AnnotationEvent };

/**
 * "History" on a collection's page (contract sections 14 and 16): what the dashboard's sync and live reads saw
 * change, each change between the last time the version before was seen and the first time it was seen
 * changed, so it says honestly "between 10:02 and 10:04"; and beside them, in one timeline newest first, the
 * notes added and deleted and the tags put on and taken off, each with who and when. The contact only as
 * "changed".
 */
export function HistoryCard({
  entries,
  since,
  retentionDays,
  minorUnits,
  annotations = [],
}: {
  entries: HistoryEntry[] | null;
  since: string | null;
  retentionDays: number;
  minorUnits: boolean;
  annotations?: AnnotationEvent[];
}) {
  const items: Item[] = [
    ...(entries ?? []).map((entry) => ({ at: entry.seenAt, entry })),
    ...annotations.map((event) => ({ at: event.at, event })),
  ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return (
    <Section
      title="History"
      id="history"
      aside={entries ? <span className="text-sm text-zinc-600 dark:text-zinc-400">{items.length}</span> : null}
    >
      {entries === null ? (
        <EmptyState title="Changes are not available">
          They are recorded by the search index, which is off or not answering.
        </EmptyState>
      ) : items.length === 0 ? (
        <EmptyState title="No changes seen">
          The upstream keeps no history; this dashboard records what its sync sees change
          {since ? (
            <>
              {' '}
              since <DateTime iso={since} />
            </>
          ) : null}
          , and the notes and tags its users add.
        </EmptyState>
      ) : null}
      {items.length ? (
        <ol aria-label="Changes, newest first" className={`space-y-3 ${entries === null ? 'mt-3' : ''}`}>
          {items.map((item) =>
            'entry' in item ? (
              <li key={`s-${item.entry.seenAt}`} className="border-l-2 border-zinc-300 pl-3 dark:border-zinc-700">
                <p className="text-sm text-zinc-600 dark:text-zinc-400">
                  Between <DateTime iso={item.entry.notSeenBefore} seconds /> and{' '}
                  <DateTime iso={item.entry.seenAt} seconds />
                </p>
                <HistoryChanges changes={item.entry.changes} minorUnits={minorUnits} className="mt-1 text-sm" />
              </li>
            ) : (
              <li
                key={`a-${item.event.kind}-${item.at}-${'tag' in item.event ? item.event.tag : item.event.noteId}`}
                className="border-l-2 border-sky-300 pl-3 dark:border-sky-800"
              >
                <p className="text-sm text-zinc-600 dark:text-zinc-400">
                  <DateTime iso={item.at} seconds />
                </p>
                <p className="mt-1 text-sm">{annotationLine(item.event)}</p>
              </li>
            ),
          )}
        </ol>
      ) : null}
      {entries !== null && since ? (
        <p className="mt-3 text-xs text-zinc-600 dark:text-zinc-400">
          Seen by this dashboard since <DateTime iso={since} />; kept for {retentionDays} days.
        </p>
      ) : null}
    </Section>
  );
}
