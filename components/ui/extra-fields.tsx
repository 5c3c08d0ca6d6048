import { KeyValue } from '@/components/ui/key-value';
import { Section } from '@/components/ui/section';

import { collectionSchema, providerSchema } from '@/lib/api/schemas';

/**
 * Top-level fields the seed does not define (a newer API version, a custom
 * integration): shown, never dropped, so support sees everything the API said.
 * The known fields are the schema's own keys, so the two cannot drift.
 */
const KNOWN = {
  collection: new Set(Object.keys(collectionSchema.shape)),
  provider: new Set(Object.keys(providerSchema.shape)),
};

export function ExtraFields({ record, kind }: { record: Record<string, unknown>; kind: keyof typeof KNOWN }) {
  const extra = Object.fromEntries(Object.entries(record).filter(([key]) => !KNOWN[kind].has(key)));
  if (Object.keys(extra).length === 0) return null;
  return (
    <Section title="Other fields" id="other-fields">
      <p className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">
        Fields the API returned that this dashboard does not know.
      </p>
      <KeyValue value={extra} />
    </Section>
  );
}
