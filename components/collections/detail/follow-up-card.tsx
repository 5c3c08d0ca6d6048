import { EnumBadge, OnOffBadge } from '@/components/ui/badge';
import { Field, Fields, Section } from '@/components/ui/section';
import type { FollowUp } from '@/lib/api/schemas';

export function FollowUpCard({ followUp: f }: { followUp: FollowUp }) {
  return (
    <Section title="Follow-up" id="follow-up">
      <Fields>
        <Field term="Reminders">
          <OnOffBadge on={f.enabled} onText="Enabled" offText="Disabled" />
        </Field>
        <Field term="Start after">
          <span className="tabular-nums">{f.startAfter}</span>
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">Unit not specified by the API</span>
        </Field>
        <Field term="Cadence">
          <EnumBadge value={f.cadence} tone="neutral" />
        </Field>
        <Field term="Channels">
          <span className="flex flex-wrap gap-1">
            {f.channels.length ? (
              f.channels.map((ch) => <EnumBadge key={ch} value={ch} />)
            ) : (
              <span className="text-zinc-600 dark:text-zinc-400">None</span>
            )}
          </span>
        </Field>
        <Field term="Tone">
          <EnumBadge value={f.tone} tone="neutral" />
        </Field>
      </Fields>
    </Section>
  );
}
