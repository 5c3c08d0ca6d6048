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
