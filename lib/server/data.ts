import 'server-only';
import { cache } from 'react';
import { collectionEnvelopeSchema, collectionListEnvelopeSchema, providerEnvelopeSchema } from '@/lib/api/envelopes';
import type { ListParams } from '@/lib/api/params';
import { getConfig } from './env';
import { createUpstreamClient, type UpstreamClient } from './upstream';

/**
 * The server data layer: the only reader of the upstream client. Route
 * handlers and server pages both come here, so they see the same data, the
 * same errors and the same checks.
 */
let client: UpstreamClient | undefined;

function upstream(): UpstreamClient {
  client ??= createUpstreamClient(getConfig().upstream);
  return client;
}

type Context = { requestId?: string };

export function listCollections(params: ListParams, context: Context = {}) {
  return upstream().get({ kind: 'list', ...params }, collectionListEnvelopeSchema, context);
}

export function getCollection(id: string, context: Context = {}) {
  return upstream().get({ kind: 'collection', id }, collectionEnvelopeSchema, context);
}

export function getProvider(id: string, context: Context = {}) {
  return upstream().get({ kind: 'provider', id }, providerEnvelopeSchema, context);
}

/** Per-render memoised reads for server components (metadata and page share one fetch). */
export const getCollectionCached = cache((id: string) => getCollection(id));
export const getProviderCached = cache((id: string) => getProvider(id));
