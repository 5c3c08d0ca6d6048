import 'server-only';
import { collectionEnvelopeSchema, collectionListEnvelopeSchema, providerEnvelopeSchema } from '@/lib/api/envelopes';
import type { Paging } from '@/lib/api/list-state';
import { assertContext, type RequestContext } from './context';
import { getConfig } from './env';
import { createUpstreamClient, type UpstreamClient } from './upstream';

/**
 * The server data layer: the only reader of the upstream client. Route
 * handlers, server pages and (soon) background jobs all come here with a
 * context, so they see the same data, the same errors and the same checks.
 */
let client: UpstreamClient | undefined;

function upstream(): UpstreamClient {
  client ??= createUpstreamClient(getConfig().upstream);
  return client;
}

export async function listCollections(context: RequestContext, paging: Paging) {
  assertContext(context);
  return upstream().get(
    { kind: 'list', page: paging.page, limit: paging.limit },
    collectionListEnvelopeSchema,
    context,
  );
}

export async function getCollection(context: RequestContext, id: string) {
  assertContext(context);
  return upstream().get({ kind: 'collection', id }, collectionEnvelopeSchema, context);
}

export async function getProvider(context: RequestContext, id: string) {
  assertContext(context);
  return upstream().get({ kind: 'provider', id }, providerEnvelopeSchema, context);
}
