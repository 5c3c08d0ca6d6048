import { KeyValue } from '@/components/ui/key-value';
import { Section } from '@/components/ui/section';

/**
 * Top-level fields the seed does not define (a newer API version, a custom
 * integration): shown, never dropped, so support sees everything the API said.
 */
const SEED_FIELDS = new Set(['id', 'type', 'contact', 'reference', 'amount', 'status', 'expiresIn', 'payable', 'followUp', 'metadata', 'events', 'createdAt', 'updatedAt', 'completedAt']);

export function ExtraFields({ record }: { record: Record<string, unknown> }) {
  const extra = Object.fromEntries(Object.entries(record).filter(([key]) => !SEED_FIELDS.has(key)));
  if (Object.keys(extra).length === 0) return null;
  return (
    <Section title="Other fields" id="other-fields">
      <p className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">Fields the API returned that this dashboard does not know.</p>
      <KeyValue value={extra} />
    </Section>
  );
}
