import 'server-only';
import type { ContactHead } from '@/lib/api/contacts';
import type { Collection } from '@/lib/api/schemas';
import type { CollectionSummary } from '@/lib/api/summary';
import { maskEmail, maskPhone } from '@/lib/format/mask';
import { isAdmin, type RequestContext } from './context';
import { getConfig } from './env';

/**
 * One rule for a contact's e-mail and phone (contract section 7a), applied where the server hands records
 * out (the data layer, the index's reads): in full to everyone signed in, unless `VIEWER_CONTACT_DETAILS`
 * is `masked`, which masks them for viewers on every page and API; admins and the server's own work always
 * see them. The index stores nothing readable: its rows are opened per request for the rows shown, then
 * passed through here.
 */
export function seesContactDetails(context: RequestContext): boolean {
  return isAdmin(context) || getConfig().access.viewerContactDetails === 'full';
}

type Reach = { email: string; phone: string; emailMasked: string; phoneMasked: string };

function reachFor<C extends Reach>(contact: C, full: boolean): C {
  return full ? contact : { ...contact, email: contact.emailMasked, phone: contact.phoneMasked };
}

/** An index summary (or a search hit) as this reader may see it. */
export function presentSummary<S extends Pick<CollectionSummary, 'contact'>>(context: RequestContext, summary: S): S {
  return seesContactDetails(context) ? summary : { ...summary, contact: reachFor(summary.contact, false) };
}

/** Many summaries: the rule read once. */
export function presentSummaries<S extends Pick<CollectionSummary, 'contact'>>(
  context: RequestContext,
  summaries: S[],
): S[] {
  if (seesContactDetails(context)) return summaries;
  return summaries.map((s) => ({ ...s, contact: reachFor(s.contact, false) }));
}

/** A contact page's head. */
export function presentHead<H extends Pick<ContactHead, 'contact'>>(context: RequestContext, head: H): H {
  return seesContactDetails(context) ? head : { ...head, contact: reachFor(head.contact, false) };
}

/** A live record (the record page, `/api/collections/{id}`, the live list) as this reader may see it. */
export function presentCollection(context: RequestContext, collection: Collection): Collection {
  if (seesContactDetails(context)) return collection;
  const { contact } = collection;
  return { ...collection, contact: { ...contact, email: maskEmail(contact.email), phone: maskPhone(contact.phone) } };
}
