import 'server-only';
import { headers } from 'next/headers';
import { cache } from 'react';
import { collectionEnvelopeSchema, collectionListEnvelopeSchema, providerEnvelopeSchema } from '@/lib/api/envelopes';
import type { ListParams } from '@/lib/api/params';
import { checkAccess } from './access';
import { getConfig } from './env';
import { createUpstreamClient, type UpstreamClient } from './upstream';
import { UpstreamError } from './upstream-error';

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

/**
 * The gate again, where data is read: a request that slipped past proxy.ts
 * (a matcher gap, a framework bypass) still gets nothing. Also picks up the
 * request id proxy.ts assigned, for the upstream log lines.
 */
async function guard(): Promise<{ requestId?: string }> {
  const h = await headers();
  if (!checkAccess(getConfig(), h.get('authorization')).ok) throw UpstreamError.of('unauthorized', 'collections');
  return { requestId: h.get('x-request-id') ?? undefined };
}

export async function listCollections(params: ListParams) {
  return upstream().get({ kind: 'list', ...params }, collectionListEnvelopeSchema, await guard());
}

export async function getCollection(id: string) {
  return upstream().get({ kind: 'collection', id }, collectionEnvelopeSchema, await guard());
}

export async function getProvider(id: string) {
  return upstream().get({ kind: 'provider', id }, providerEnvelopeSchema, await guard());
}

/** Per-render memoised reads for server components (metadata and page share one fetch). */
export const getCollectionCached = cache((id: string) => getCollection(id));
export const getProviderCached = cache((id: string) => getProvider(id));
