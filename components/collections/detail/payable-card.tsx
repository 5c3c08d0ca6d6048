import { EnumBadge, OnOffBadge } from '@/components/ui/badge';
import { KeyValue } from '@/components/ui/key-value';
import { Field, Fields, Section } from '@/components/ui/section';
import type { Payable } from '@/lib/api/schemas';

export function PayableCard({ payable: p }: { payable: Payable }) {
  return (
    <Section title="Payment methods" id="payable">
      <Fields>
        <Field term="Payable">
          <OnOffBadge on={p.enabled} onText="Enabled" offText="Disabled" />
        </Field>
        <Field term="Methods">
          <span className="flex flex-wrap gap-1">
            {p.methods.length ? (
              p.methods.map((m) => <EnumBadge key={m} value={m} />)
            ) : (
              <span className="text-zinc-600 dark:text-zinc-400">None</span>
            )}
          </span>
        </Field>
        <Field term="Options">
          {p.options.length ? (
            <KeyValue value={p.options} human />
          ) : (
            <span className="text-zinc-600 dark:text-zinc-400">No options</span>
          )}
        </Field>
      </Fields>
    </Section>
  );
}
