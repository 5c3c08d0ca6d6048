import 'server-only';
import { collectionEnvelopeSchema, collectionListEnvelopeSchema, providerEnvelopeSchema } from '@/lib/api/envelopes';
import type { Paging } from '@/lib/api/list-state';
import { presentCollection } from './contact-details';
import { assertContext, type RequestContext } from './context';
import type { Runtime } from './runtime';

/**
 * The server data layer: the only reader of the upstream client. Route
 * handlers, server pages and the export all come here with a context, so they
 * see the same data, the same errors and the same checks; what a user read is
 * written through to the index (the runtime's), and handed back with the contact as the reader may see it.
 */
export async function listCollections(rt: Runtime, context: RequestContext, paging: Paging, cancel?: AbortSignal) {
  assertContext(context);
  const request = { kind: 'list', page: paging.page, limit: paging.limit } as const;
  const { upstream, index } = rt;
  const page = await upstream.get(request, collectionListEnvelopeSchema, context, cancel);
  // With the list's count: the index's "N of M" then never holds these rows beside an older, smaller M.
  void index.writeThrough(page.data, context, page.meta.count);
  return { ...page, data: page.data.map((c) => presentCollection(context, c)) };
}

export async function getCollection(rt: Runtime, context: RequestContext, id: string) {
  assertContext(context);
  const { upstream, index } = rt;
  const one = await upstream.get({ kind: 'collection', id }, collectionEnvelopeSchema, context);
  void index.writeThrough([one.data], context);
  return { ...one, data: presentCollection(context, one.data) };
}

/**
 * Whether the context's account can read a record (the 403 hint asks the other accounts a user may see): the
 * upstream's answer only, written nowhere and handed back to no one. Resolves, or throws the read's error.
 */
export async function probeRecord(
  rt: Runtime,
  context: RequestContext,
  kind: 'collection' | 'provider',
  id: string,
  cancel: AbortSignal,
): Promise<void> {
  assertContext(context);
  if (kind === 'collection') await rt.upstream.get({ kind, id }, collectionEnvelopeSchema, context, cancel);
  else await rt.upstream.get({ kind, id }, providerEnvelopeSchema, context, cancel);
}

export async function getProvider(rt: Runtime, context: RequestContext, id: string) {
  assertContext(context);
  return rt.upstream.get({ kind: 'provider', id }, providerEnvelopeSchema, context);
}
