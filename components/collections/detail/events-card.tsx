import { Badge } from '@/components/ui/badge';
import { EmptyState } from '@/components/ui/empty-state';
import { KeyValue } from '@/components/ui/key-value';
import { Section } from '@/components/ui/section';
import { DateTime } from '@/components/ui/date-time';
import { asTimeline } from '@/lib/format/events';

/** A timeline when every event has a type and a time; their raw content otherwise. */
export function EventsCard({ events }: { events: unknown[] }) {
  const timeline = asTimeline(events);
  return (
    <Section
      title="Events"
      id="events"
      aside={<span className="text-sm text-zinc-600 dark:text-zinc-400">{events.length}</span>}
    >
      {events.length === 0 ? (
        <EmptyState title="No events yet" />
      ) : timeline ? (
        <ol
          aria-label="Event timeline"
          className="relative space-y-3 border-l border-zinc-300 pl-4 dark:border-zinc-700"
        >
          {timeline.map((entry, i) => (
            <li key={i} className="relative">
              <span aria-hidden="true" className="absolute -left-[1.3rem] top-1.5 size-2 rounded-full bg-sky-600" />
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <Badge tone="neutral">
                  <span className="font-mono">{entry.type}</span>
                </Badge>
                <DateTime iso={entry.at} seconds />
              </div>
              {Object.keys(entry.details).length ? (
                <div className="mt-1">
                  <KeyValue value={entry.details} human />
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      ) : (
        <KeyValue value={events} />
      )}
    </Section>
  );
}
