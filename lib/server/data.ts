import 'server-only';
import { collectionEnvelopeSchema, collectionListEnvelopeSchema, providerEnvelopeSchema } from '@/lib/api/envelopes';
import type { Collection } from '@/lib/api/schemas';
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

/**
 * Who wants to hear about records read live (the index's write-through). Kept
 * on globalThis: Next bundles instrumentation and routes apart, and both must
 * see one set. Listeners run after the data is in hand and never throw into a read.
 */
export type ReadListener = (records: Collection[], source: 'list' | 'detail', context: RequestContext) => void;
const LISTENERS = Symbol.for('collections-console.read-listeners');
const listeners = ((globalThis as Record<symbol, unknown>)[LISTENERS] ??= new Set<ReadListener>()) as Set<ReadListener>;

export function onRecordsRead(listener: ReadListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function announce(records: Collection[], source: 'list' | 'detail', context: RequestContext) {
  for (const listener of listeners) {
    try {
      listener(records, source, context);
    } catch {
      // A listener's fault is its own; the read already succeeded.
    }
  }
}

export async function listCollections(context: RequestContext, paging: Paging, cancel?: AbortSignal) {
  assertContext(context);
  const request = { kind: 'list', page: paging.page, limit: paging.limit } as const;
  const page = await upstream().get(request, collectionListEnvelopeSchema, context, cancel);
  announce(page.data, 'list', context);
  return page;
}

export async function getCollection(context: RequestContext, id: string) {
  assertContext(context);
  const one = await upstream().get({ kind: 'collection', id }, collectionEnvelopeSchema, context);
  announce([one.data], 'detail', context);
  return one;
}

export async function getProvider(context: RequestContext, id: string) {
  assertContext(context);
  return upstream().get({ kind: 'provider', id }, providerEnvelopeSchema, context);
}
