import 'server-only';
import type { Overview, PerDayOf, Range } from '@/lib/api/overview';
import { tagQuery } from '@/lib/api/annotations';
import {
  defaults,
  filterSchema,
  isIndexed,
  listStateSchema,
  type ListState,
  type SearchState,
} from '@/lib/api/list-state';
import { assertContext, type RequestContext } from '../context';
import { listCollections } from '../data';
import { AppError } from '../errors';
import { isTransientCode } from '@/lib/api/error-codes';
import { audited, searchKind, searchTarget } from '../audit/audit';
import { closedUnder, isStatementTimeout, storeFault } from '../database/connect';
import { getConfig } from '../env';
import { presentSummaries, presentSummary } from '../contact-details';
import type { CollectionSummary, IndexPage, MatchedField } from '../search-index/read';
import { readingOf, type Reading } from '../search-index/read/reading';
import type { Runtime } from '../runtime';
import { annotated } from './annotate';

/**
 * The index's reads as the dashboard's API answers them: the seed's envelope,
 * with `meta` saying where the rows came from and how fresh they are. Checked
 * against the request context like every other read.
 */
function pageMeta(count: number, page: number, limit: number) {
  return { count, next: page * limit < count ? page + 1 : null, prev: page > 1 ? page - 1 : null };
}

/**
 * A store fault met while answering (a damaged or vanished file, a database that stopped answering) is a
 * 503 while the index rebuilds or reconnects; a read cut off at its time bound a 503 `index_busy`.
 */
export async function guarded<T>(rt: Runtime, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    // A statement that ran past its bound (PostgreSQL's reads): this search's fault, not the store's.
    if (isStatementTimeout(error)) throw AppError.of('index_busy', 'collections');
    // A later statement of this read, after a fault its first ones met closed the connection: the same 503.
    if (closedUnder(error))
      throw new AppError(
        'index_unavailable',
        "The index's database is reconnecting; search and filters are back in a moment",
      );
    const fault = storeFault(error);
    if (!fault) throw error;
    await rt.index.storeFault(error);
    throw new AppError(
      'index_unavailable',
      fault === 'unreachable'
        ? "The index's database is not answering; search and filters are back when it does"
        : 'The index is being rebuilt; search and filters are back in a moment',
    );
  }
}

/**
 * A page of the index as the API answers it: the seed's envelope, `meta` saying its source and freshness,
 * each row's contact as the reader may see it.
 */
export async function indexPage<T extends Pick<CollectionSummary, 'contact'>>(
  rt: Runtime,
  context: RequestContext,
  read: () => Promise<IndexPage<T>>,
  page: number,
  limit: number,
  message: string,
) {
  const [result, status] = await Promise.all([guarded(rt, read), rt.index.status()]);
  return {
    status: 'success' as const,
    message,
    data: presentSummaries(context, result.data),
    meta: {
      ...pageMeta(result.count, page, limit),
      source: 'index' as const,
      asOf: status.asOf,
      coverage: status.coverage,
    },
  };
}

/** What an audit entry keeps of a search: its kind, the page and how many matched (never the text). */
const searchDetail = (q: string, page: number, result: { meta: { count: number } } | null) => ({
  kind: searchKind(q),
  page,
  results: result?.meta.count ?? null,
});

/** `/api/search` and the `/search` page. */
export async function searchCollections(rt: Runtime, context: RequestContext, state: SearchState & { q: string }) {
  assertContext(context);
  // `tag:vip amara` (section 16): the list of that tag, searched for the rest.
  const tagged = tagQuery(state.q);
  if (tagged) {
    const listed = await indexedCollections(rt, context, {
      ...defaults(listStateSchema),
      tag: tagged.tags,
      q: tagged.rest,
      page: state.page,
      limit: state.limit,
    });
    return annotated(rt, { ...listed, data: listed.data.map((row) => ({ matched: [] as MatchedField[], ...row })) });
  }
  return audited(
    rt.audit,
    context,
    'search',
    searchTarget(state.q),
    async () => {
      const queries = await rt.index.queries();
      const found = await indexPage(
        rt,
        context,
        () => queries.search(state.q, defaults(filterSchema), state.page, state.limit),
        state.page,
        state.limit,
        'Search results from the index',
      );
      return annotated(rt, found);
    },
    (result) => searchDetail(state.q, state.page, result),
  );
}

/** How the index reads a search (for a result that found nothing): what it was read as, what to try next. */
export async function searchReading(rt: Runtime, context: RequestContext, q: string): Promise<Reading> {
  assertContext(context);
  const queries = await rt.index.queries();
  return readingOf(q, await guarded(rt, () => queries.plan(q)));
}

/** A filtered, sorted or searched page of the list, from the index. */
export async function indexedCollections(rt: Runtime, context: RequestContext, state: ListState) {
  assertContext(context);
  const read = async () => {
    const queries = await rt.index.queries();
    const page = state.q
      ? () => queries.search(state.q!, state, state.page, state.limit)
      : () => queries.list(state, state.page, state.limit);
    return indexPage<CollectionSummary>(
      rt,
      context,
      page,
      state.page,
      state.limit,
      'Collections retrieved from the index',
    );
  };
  const log = rt.audit;
  if (state.q)
    return audited(log, context, 'search', searchTarget(state.q), read, (r) => searchDetail(state.q!, state.page, r));
  return audited(log, context, 'filter', null, read, (r) => ({ ...state, results: r?.meta.count ?? null }));
}

/** The live upstream list (no filters), as the list page and `/api/collections` read it. */
export async function liveCollections(rt: Runtime, context: RequestContext, state: ListState) {
  assertContext(context);
  return audited(
    rt.audit,
    context,
    'filter',
    null,
    () => listCollections(rt, context, state),
    (r) => ({ page: state.page, limit: state.limit, results: r?.meta.count ?? null }),
  );
}

/**
 * The live list; or, when the upstream's list read meets a fault that may pass (unreachable, 5xx, a
 * timeout, 429) and the index is ready, the same page from the index, saying why (`meta.fallback`, the upstream's error code). The
 * browser asks the live list again while it shows the fallback: it comes back by itself.
 */
export async function liveOrIndexed(rt: Runtime, context: RequestContext, state: ListState) {
  try {
    const live = await liveCollections(rt, context, state);
    return { ...live, meta: { ...live.meta, source: 'upstream' as const } };
  } catch (error) {
    if (!(error instanceof AppError) || !isTransientCode(error.code)) throw error;
    const status = await rt.index.status().catch(() => null);
    // Ready: a full scan completed. The sync meets the same fault and says "error" after a few tries; its
    // rows are as good as when the upstream last answered.
    const whole =
      status?.lastFullScanAt != null &&
      (status.state === 'ready' || (status.state === 'error' && status.error && isTransientCode(status.error)));
    if (!status || !whole) throw error;
    const page = await indexedCollections(rt, context, state).catch(() => Promise.reject(error));
    // A page past the index's end (the live list may be longer): the upstream's error says more.
    if (!page.data.length && page.meta.count > 0) throw error;
    // Contract 15: `fallback` is the upstream's error code; the index's freshness beside it (`asOf` is the
    // index page's own), so the notice can say "N of M".
    return {
      ...page,
      message: 'Collections from the index: the upstream list failed',
      meta: { ...page.meta, fallback: error.code, indexed: status.indexed, upstreamCount: status.upstreamCount },
    };
  }
}

/** `/api/collections`: the live upstream list (or the index when it fails), or the index when filtered, searched or sorted. */
export async function collectionsPage(rt: Runtime, context: RequestContext, state: ListState) {
  if (isIndexed(state)) return annotated(rt, await indexedCollections(rt, context, state));
  return annotated(rt, await liveOrIndexed(rt, context, state));
}

/**
 * The index's last copy of a collection and when the upstream last showed it, for a record page whose live
 * read failed: null when the index is off, faulty or does not hold it (the page shows its error alone).
 */
export async function lastSeenCollection(rt: Runtime, context: RequestContext, id: string) {
  assertContext(context);
  try {
    const queries = await rt.index.queries();
    const seen = await queries.lastSeen(id);
    return seen && { ...seen, summary: presentSummary(context, seen.summary) };
  } catch {
    return null;
  }
}

/**
 * `/api/collections/{id}/history` and the record page's History (contract section 14): what the sync and
 * live reads saw change, newest first, each change between the last time the version before was seen and
 * the first time it was seen changed; `meta.since` is when this index began keeping history (a rebuilt index
 * starts afresh). Audited as a view of the record.
 */
export async function collectionHistory(rt: Runtime, context: RequestContext, id: string) {
  assertContext(context);
  return audited(
    rt.audit,
    context,
    'view_collection',
    id,
    async () => {
      const service = rt.index;
      const [queries, status] = await Promise.all([service.queries(), service.status()]);
      const { entries, since } = await guarded(rt, () => queries.history(id));
      return {
        status: 'success' as const,
        message: 'History retrieved',
        data: entries,
        meta: {
          count: entries.length,
          source: 'index' as const,
          since,
          retentionDays: getConfig().index.historyRetentionDays,
          asOf: status.asOf,
        },
      };
    },
    () => ({ history: true }),
  );
}

/** The record page's History (its view is audited by the page's read already): null when the index cannot say. */
export async function historyForPage(rt: Runtime, context: RequestContext, id: string) {
  assertContext(context);
  try {
    const queries = await rt.index.queries();
    return await guarded(rt, () => queries.history(id));
  } catch {
    return null;
  }
}

/**
 * `/api/overview` and the `/overview` page: the roll-ups for a range, with the index's freshness; `perDay`
 * for every currency, one (`?currency=`, the page's detail) or none (the page's table alone). With `tags`
 * (`tag=`), the figures and the day's changes of the collections holding any of them, from their rows.
 */
export async function indexOverview(
  rt: Runtime,
  context: RequestContext,
  range: Range,
  perDayOf: PerDayOf = 'every',
  tags: readonly string[] = [],
) {
  assertContext(context);
  return audited(
    rt.audit,
    context,
    'filter',
    'overview',
    async () => {
      const service = rt.index;
      const queries = await service.queries();
      // The last day's changes, from a minute's start: the panel's links name the same instant.
      const since = new Date(Math.floor((Date.now() - 86_400_000) / 60_000) * 60_000).toISOString();
      const [figures, kinds, status] = await Promise.all([
        guarded(rt, () => queries.overview(range, Date.now(), perDayOf, tags)),
        guarded(rt, () => queries.statusChanges(since, tags)),
        service.status(),
      ]);
      const data: Overview = {
        ...figures,
        changes: { since, kinds },
        ...(tags.length ? { tag: [...tags] } : {}),
        asOf: status.asOf,
        coverage: status.coverage,
      };
      return { status: 'success' as const, message: 'Overview from the index', data, index: status };
    },
    () => ({
      range,
      ...(typeof perDayOf === 'object' ? { currency: perDayOf.currency } : {}),
      ...(tags.length ? { tag: tags.join(',') } : {}),
    }),
  );
}

/** `/api/index/status`. */
export async function indexStatus(rt: Runtime, context: RequestContext) {
  assertContext(context);
  return { status: 'success' as const, message: 'Index status', data: await rt.index.status() };
}
