import 'server-only';
import { audited } from '../audit/audit';
import type { RequestContext } from '../context';
import { getCollection, getProvider } from '../data';
import { runtime } from '../runtime';

/**
 * A record opened by a user (its page, `/api/collections/{id}`, a lookup, a
 * watch): the live read and its one audit entry, "who viewed pay_…".
 */
export function viewCollection(context: RequestContext, id: string) {
  return audited(runtime().audit, context, 'view_collection', id, () => getCollection(context, id));
}

export function viewProvider(context: RequestContext, id: string) {
  return audited(runtime().audit, context, 'view_provider', id, () => getProvider(context, id));
}
