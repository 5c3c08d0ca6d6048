import 'server-only';
import { defaults, filterSchema, listStateSchema, type ListState } from '@/lib/api/list-state';
import { assertContext, type RequestContext } from '../context';
import { audited } from '../audit/audit';
import { AppError } from '../errors';
import { presentHead } from '../contact-details';
import type { ContactOverview } from '../search-index/read';
import { guarded, indexPage } from './collections';
import type { Runtime } from '../runtime';

/**
 * A contact's page (contract section 14): who it is, its totals, the other contact ids under its e-mail,
 * and its collections as the one list (the list's filters, sort and pages, from the index). 404 when the
 * index holds no collection of it. Audited as `view_contact`, its id the target.
 */
export async function contactPage(rt: Runtime, context: RequestContext, id: string, state: ListState) {
  assertContext(context);
  return audited(
    rt.audit,
    context,
    'view_contact',
    id,
    async () => {
      const queries = await rt.index.queries();
      const overview: ContactOverview | null = await guarded(rt, () => queries.contact(id));
      if (!overview) throw AppError.of('not_found', 'contact');
      const withContact = { ...state, contact: id };
      const page = await indexPage(
        rt,
        context,
        () =>
          withContact.q
            ? queries.search(withContact.q, withContact, state.page, state.limit)
            : queries.list(withContact, state.page, state.limit),
        state.page,
        state.limit,
        'Contact retrieved from the index',
      );
      return {
        ...page,
        data: {
          contact: presentHead(context, overview).contact,
          totals: overview.totals,
          sameEmail: overview.sameEmail,
          collections: page.data,
        },
        meta: { ...page.meta, linked: overview.linked },
      };
    },
    (r) => ({ results: r?.meta.count ?? null }),
  );
}

/** The contact page's head (who, totals, other ids) without its list: null when the index holds none of it. */
export async function contactOverview(
  rt: Runtime,
  context: RequestContext,
  id: string,
): Promise<ContactOverview | null> {
  assertContext(context);
  const queries = await rt.index.queries();
  return audited(rt.audit, context, 'view_contact', id, async () => {
    const head = await guarded(rt, () => queries.contact(id));
    return head && presentHead(context, head);
  });
}

/**
 * How many collections of a contact the index holds (a record's contact card links its page with it): null
 * when the index cannot say (off, building its first rows, faulty). Part of the record's view: not audited.
 */
export async function contactCount(rt: Runtime, context: RequestContext, id: string): Promise<number | null> {
  assertContext(context);
  try {
    const queries = await rt.index.queries();
    const state = { ...defaults(listStateSchema), ...defaults(filterSchema), contact: id };
    return (await guarded(rt, () => queries.list(state, 1, 1))).count;
  } catch {
    return null;
  }
}
