import 'server-only';
import type { ViewCreate, ViewUpdate } from '@/lib/api/inputs';
import { NO_VIEW, OPEN_OWNER, openViewState, viewUrl, type SavedView } from '@/lib/api/views';
import { audit, outcomeOf } from '../audit/audit';
import { assertContext, isAdmin, type RequestContext } from '../context';
import { AppError } from '../errors';
import { kept } from './kept';
import { ViewConflict, type Reader } from '../views/store';
import type { Runtime } from '../runtime';

/**
 * Saved views, as pages and `/api/views` read and change them (contract section 13). The owner is the
 * signed-in identity (an OIDC e-mail, a Basic user name) or, with no access gate, one shared "anyone". A
 * viewer keeps personal views; an admin may also share one with everyone and pin shared views to the
 * navigation. A view someone else shares is read-only to the rest ("Save as" makes a copy). Every create,
 * change and delete is audited (`view_save`, `view_delete`, the view's id as the target), refusals too.
 */
export function readerOf(rt: Runtime, context: RequestContext): Reader {
  assertContext(context);
  const principal = context.principal;
  const owner =
    principal.kind === 'system'
      ? `system:${principal.name}`
      : principal.via === 'open'
        ? OPEN_OWNER
        : principal.via === 'session'
          ? principal.name.toLowerCase()
          : principal.name;
  return { account: rt.views.account, owner };
}

const notFound = () => new AppError('not_found', 'View not found: it was deleted, or it is not shared with you');
const readOnly = (view: SavedView) =>
  new AppError(
    'forbidden',
    `This view is shared by ${view.owner} and only they can change it: save a copy of it (Save as) to change yours`,
  );
const adminsOnly = (what: string) => new AppError('forbidden_role', `Only admins ${what}`);

/** A store's refusal (a taken name, the 100 views, the 5 pins) as the 400 that names the field. */
function conflict(error: unknown): never {
  if (error instanceof ViewConflict) throw new AppError('bad_request', error.message);
  throw error;
}

/** Runs a change and writes its audit entry, with the outcome (`ok` or the error code). */
async function audited<T>(
  rt: Runtime,
  context: RequestContext,
  action: 'view_save' | 'view_delete',
  target: string | null,
  detail: Record<string, unknown>,
  change: () => Promise<T>,
): Promise<T> {
  const log = rt.audit;
  try {
    const result = await change();
    const id = (result as { id?: unknown } | null)?.id;
    audit(log, context, action, typeof id === 'string' ? id : target, 'ok', detail);
    return result;
  } catch (error) {
    audit(log, context, action, target, outcomeOf(error), detail);
    throw error;
  }
}

/** What `kept` names when the database is away or a read past its bound. */
const VIEWS = 'Saved views';

/** The reader's views and the team's shared ones; with counts (`counts`), each view's from the index. */
export async function listViews(rt: Runtime, context: RequestContext, options: { counts?: boolean } = {}) {
  const reader = readerOf(rt, context);
  const { views, defaultId } = await kept(VIEWS, () => rt.views.store.list(reader));
  const counted = options.counts
    ? await Promise.all(
        views.map(async (view) => ({
          ...view,
          ...(await rt.views.count(viewUrl(view), openViewState(view).state)),
        })),
      )
    : views;
  return {
    status: 'success',
    message: 'Views retrieved',
    data: counted,
    meta: {
      count: views.length,
      defaultId,
      owner: reader.owner,
      /** No access gate: every view belongs to one shared "anyone" (the UI says so). */
      openAccess: reader.owner === OPEN_OWNER,
      canShare: isAdmin(context),
    },
  };
}

export async function getView(rt: Runtime, context: RequestContext, id: string) {
  const view = await kept(VIEWS, () => rt.views.store.get(readerOf(rt, context), id));
  if (!view) throw notFound();
  return { status: 'success', message: 'View retrieved', data: view };
}

export async function createView(rt: Runtime, context: RequestContext, body: ViewCreate) {
  const reader = readerOf(rt, context);
  const view = await audited(rt, context, 'view_save', null, { change: 'create', shared: body.shared }, () =>
    kept(VIEWS, async () => {
      if (body.shared && !isAdmin(context)) throw adminsOnly('share views with everyone');
      return rt.views.store.create(reader, body).catch(conflict);
    }),
  );
  return { status: 201, body: { status: 'success', message: 'View saved', data: view } };
}

export async function updateView(rt: Runtime, context: RequestContext, id: string, body: ViewUpdate) {
  const reader = readerOf(rt, context);
  const store = rt.views.store;
  const { default: makeDefault, pinned, ...fields } = body;
  const changes = Object.keys(body).sort();
  const view = await audited(
    rt,
    context,
    'view_save',
    id,
    { changes, ...('shared' in body ? { shared: body.shared } : {}) },
    () =>
      kept(VIEWS, async () => {
        const before = await store.get(reader, id);
        if (!before) throw notFound();
        const owned = Object.keys(fields).length > 0;
        if (owned && !before.mine) throw readOnly(before);
        if (fields.shared && !before.shared && !isAdmin(context)) throw adminsOnly('share views with everyone');
        if (pinned !== undefined && !isAdmin(context)) throw adminsOnly('pin views to the navigation');
        let after: SavedView | null = before;
        if (owned) after = await store.update(reader, id, fields).catch(conflict);
        if (pinned !== undefined) after = await store.pin(reader, id, pinned).catch(conflict);
        if (makeDefault !== undefined) {
          await store.setDefault(reader, id, makeDefault);
          after = await store.get(reader, id);
        }
        if (!after) throw notFound();
        return after;
      }),
  );
  return { body: { status: 'success', message: 'View saved', data: view } };
}

export async function deleteView(rt: Runtime, context: RequestContext, id: string) {
  const reader = readerOf(rt, context);
  const store = rt.views.store;
  await audited(rt, context, 'view_delete', id, {}, () =>
    kept(VIEWS, async () => {
      const before = await store.get(reader, id);
      if (!before) throw notFound();
      if (!before.mine) throw readOnly(before);
      if (!(await store.remove(reader, id))) throw notFound();
      return { id };
    }),
  );
  return { body: { status: 'success', message: 'View deleted', data: { id } } };
}

/**
 * The view a `/collections` page opens: the one its URL names (`?view=`), else the reader's default when
 * the URL says nothing of the list. `missing` when the URL names a view the reader cannot open.
 */
export async function viewForPage(
  rt: Runtime,
  context: RequestContext,
  requested: string | null,
  bare: boolean,
): Promise<{ view: SavedView | null; missing: boolean; hasDefault: boolean }> {
  const store = rt.views.store;
  const reader = readerOf(rt, context);
  try {
    // The list without a view: only whether the reader has a default (Clear filters then leaves it too).
    if (requested === NO_VIEW || (requested === null && !bare))
      return { view: null, missing: false, hasDefault: (await store.defaultId(reader)) !== null };
    // The view named, or the reader's default: one round of reads (the view and the default's id at once).
    const { view, defaultId } = await store.open(reader, requested);
    return { view, missing: requested !== null && !view, hasDefault: defaultId !== null };
  } catch {
    // The database away: the list still shows, without views.
    return { view: null, missing: false, hasDefault: false };
  }
}

/** The account's pinned views for the navigation, each with its count (cached a while). */
export async function pinnedViews(rt: Runtime, context: RequestContext) {
  const reader = readerOf(rt, context);
  const pins = await rt.views.store.pinned(reader.account).catch(() => []);
  return pins.map((pin) => ({
    id: pin.id,
    name: pin.name,
    href: viewUrl(pin),
    count: rt.views.count(viewUrl(pin), openViewState({ ...pin, columns: [] }).state),
  }));
}
