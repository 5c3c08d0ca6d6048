import 'server-only';
import { audited } from '../audit/audit';
import type { RequestContext } from '../context';
import { getCollection, getProvider } from '../data';
import type { Runtime } from '../runtime';
import { withOwnerHint } from './owner';

/**
 * A record opened by a user (its page, `/api/collections/{id}`, a lookup, a
 * watch): the live read and its one audit entry, "who viewed pay_…"; refused, it says which of the user's
 * other accounts owns it (owner.ts).
 */
export function viewCollection(rt: Runtime, context: RequestContext, id: string) {
  return audited(rt.audit, context, 'view_collection', id, () =>
    withOwnerHint(rt, context, 'collection', id, () => getCollection(rt, context, id)),
  );
}

export function viewProvider(rt: Runtime, context: RequestContext, id: string) {
  return audited(rt.audit, context, 'view_provider', id, () =>
    withOwnerHint(rt, context, 'provider', id, () => getProvider(rt, context, id)),
  );
}
