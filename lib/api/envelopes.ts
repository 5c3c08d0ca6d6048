import { z } from 'zod';
import { collectionSchema, listMetaSchema, providerSchema } from './schemas';

/** The seed's success envelope: `status`, `message`, `data` (and `meta` on the list). */
function successEnvelope<T extends z.ZodType>(data: T) {
  return z.looseObject({ status: z.literal('success'), message: z.string(), data });
}

export const collectionEnvelopeSchema = successEnvelope(collectionSchema);
export const providerEnvelopeSchema = successEnvelope(providerSchema);
export const collectionListEnvelopeSchema = successEnvelope(z.array(collectionSchema)).extend({
  meta: listMetaSchema,
});

/** The seed's error envelope as upstream sends it (no `code`). */
export const upstreamErrorSchema = z.looseObject({
  status: z.literal('error'),
  message: z.string(),
});

export type CollectionEnvelope = z.infer<typeof collectionEnvelopeSchema>;
export type ProviderEnvelope = z.infer<typeof providerEnvelopeSchema>;
export type CollectionListEnvelope = z.infer<typeof collectionListEnvelopeSchema>;

/** What reading an answer's body came to: its data, or why not (invalid JSON, or the first field that breaks the schema). */
export type ParsedBody<T> =
  { ok: true; data: T } | { ok: false; reason: 'json' } | { ok: false; reason: 'schema'; field: string };

/** The first failing field of a zod error, as a path like `data[3].amount.value`. */
export function failingField(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return '(unknown)';
  const path = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  return `${path || '(root)'}: ${issue.message}`;
}

/** An answer's bytes as UTF-8 (a byte-order mark dropped, as `Response.text()` does), parsed and checked by `schema`. */
export function parseBody<T>(schema: z.ZodType<T>, bytes: ArrayBuffer | Uint8Array): ParsedBody<T> {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { ok: false, reason: 'json' };
  }
  const parsed = schema.safeParse(body);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, reason: 'schema', field: failingField(parsed.error) };
}
