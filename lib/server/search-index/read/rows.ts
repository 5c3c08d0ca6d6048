import 'server-only';
import { tagKey } from '@/lib/api/annotations';
import type { Filters } from '@/lib/api/list-state';
import { sql } from 'kysely';
import { iso } from '../shared/history';
import { openedIdsOnSqlite } from '../shared/opened-ids';
import { tokenIds } from './candidates';
import type { ReadContext } from './context';
import { rankedCandidates } from './name-forms';
import { SearchPlan } from './plan';
import { ListRows, Rows } from './rows-types';

/** Whether a view narrows its rows beyond its search: any of `withFilters`' conditions. */
export const narrows = (f: Filters) =>
  Boolean(
    f.contact ||
    f.change ||
    f.changedSince ||
    f.status?.length ||
    f.currency?.length ||
    f.createdFrom ||
    f.createdTo ||
    f.completedFrom ||
    f.completedTo ||
    f.amountMin !== undefined ||
    f.amountMax !== undefined ||
    f.tag?.length,
  );

/** The ids of one contact's collections (its `contact` token: section 14), opened by id or listed. */
export const contactIds = (ctx: ReadContext, contactId: string) =>
  tokenIds(ctx, 'contact', ctx.keys.token('contact', contactId));

/**
 * The ids of collections whose status the index saw change so (`change`), or change at all, since a time
 * (`changedSince`): the Overview's Changes, read from the history's own columns (migration 0018).
 */
export const changedIds = (ctx: ReadContext, filters: Filters) => {
  let q = ctx.reads
    .selectFrom('collection_history')
    .select('collection_history.id')
    .where('collection_history.account', '=', ctx.account);
  if (filters.change)
    q = q
      .where('collection_history.status_from', '=', filters.change.from)
      .where('collection_history.status_to', '=', filters.change.to);
  if (filters.changedSince) q = q.where('collection_history.seen_at', '>=', iso(filters.changedSince)!);
  return q.distinct();
};

export const changes = (f: Filters) => Boolean(f.change || f.changedSince);

/**
 * The ids holding any of the tags (`tag=`, section 16): the application's own table, read by tag in its
 * key's range, beside the index's rows (one database). Names are matched whatever their case.
 */
export const taggedIds = (ctx: ReadContext, tags: readonly string[]) =>
  ctx.reads
    .selectFrom('collection_tags')
    .select('collection_tags.id')
    .where('collection_tags.account', '=', ctx.tagAccount)
    .where('collection_tags.tag', 'in', [...new Set(tags.map(tagKey))]);

/**
 * Whether the row holds any of the tags: probed by key (`collection_tags_id`) for each row a page walks in its
 * order. An `in (…)` of the tagged ids made SQLite gather every one of them first (75,000 at 1,000,000 rows:
 * 27 ms a page warm against 1.3 ms probed, and past the reads' bound beside a sync).
 */
const holdsTag = (ctx: ReadContext, tags: readonly string[]) =>
  taggedIds(ctx, tags).where('collection_tags.id', '=', sql.ref<string>('collections.id'));

export function withFilters<Q extends Rows | ListRows>(ctx: ReadContext, query: Q, filters: Filters): Q {
  let q = query as Rows;
  if (filters.contact) q = q.where('collections.id', 'in', contactIds(ctx, filters.contact));
  if (changes(filters)) q = q.where('collections.id', 'in', changedIds(ctx, filters));
  if (filters.tag?.length) q = q.where((eb) => eb.exists(holdsTag(ctx, filters.tag!)));
  if (filters.status?.length) q = q.where('collections.status', 'in', filters.status);
  if (filters.currency?.length) q = q.where('collections.currency', 'in', filters.currency);
  if (filters.createdFrom) q = q.where('collections.created_at', '>=', `${filters.createdFrom}T00:00:00.000Z`);
  if (filters.createdTo) q = q.where('collections.created_at', '<=', `${filters.createdTo}T23:59:59.999Z`);
  // On the narrow row, read through its own partial index (migration 0008).
  if (filters.completedFrom) q = q.where('collections.completed_at', '>=', `${filters.completedFrom}T00:00:00.000Z`);
  if (filters.completedTo) q = q.where('collections.completed_at', '<=', `${filters.completedTo}T23:59:59.999Z`);
  if (filters.amountMin !== undefined) q = q.where('collections.amount_value', '>=', filters.amountMin);
  if (filters.amountMax !== undefined) q = q.where('collections.amount_value', '<=', filters.amountMax);
  return q as Q;
}

/**
 * The rows to page through: the account's collections, or, for a search, its candidates first
 * (a CROSS JOIN keeps them the outer loop in SQLite: a handful of ids looked up by key, never a
 * walk of the whole table), then the filters.
 */
/** A search's candidates (`matches`: every arm's, ranked), then each once at its best rank (`hits`). */
export const withHits = (ctx: ReadContext, plan: SearchPlan) =>
  ctx.reads
    .with('matches', () => rankedCandidates(ctx, plan))
    .with('hits', (cte) =>
      cte
        .selectFrom('matches')
        .select(['matches.id', sql<number>`min(matches.rank)`.as('rank')])
        .groupBy('matches.id'),
    );

export function rows(ctx: ReadContext, filters: Filters, plan: SearchPlan | null): Rows | ListRows {
  // One contact's few collections drive (a CROSS JOIN keeps them the outer loop), each looked up by key:
  // every one the index holds, opened by id or listed.
  if (!plan && filters.contact)
    return withFilters(
      ctx,
      ctx.reads
        .selectFrom(contactIds(ctx, filters.contact).as('k'))
        .crossJoin('collections')
        .where('collections.account', '=', ctx.account)
        .whereRef('collections.id', '=', 'k.id') as unknown as ListRows,
      { ...filters, contact: undefined },
    );
  // So are the collections of a kind of change: a day's are a few thousand at most.
  if (!plan && changes(filters))
    return withFilters(
      ctx,
      ctx.reads
        .selectFrom(changedIds(ctx, filters).as('k'))
        .crossJoin('collections')
        .where('collections.account', '=', ctx.account)
        .whereRef('collections.id', '=', 'k.id') as unknown as ListRows,
      { ...filters, change: undefined, changedSince: undefined },
    );
  if (!plan)
    return withFilters(
      ctx,
      ctx.reads
        .selectFrom('collections')
        .where('collections.account', '=', ctx.account)
        .where('collections.id', 'not in', openedIds(ctx)),
      filters,
    );
  const joined = withHits(ctx, plan)
    .selectFrom('hits')
    .crossJoin('collections')
    .where('collections.account', '=', ctx.account)
    .whereRef('collections.id', '=', 'hits.id');
  return withFilters(ctx, joined, filters);
}

/**
 * Collections only opened by their id (not integrated): found by a search, never part of a list
 * without one, its filter menus' counts or the overview (which count what the list returns). They are
 * few; read once a query through their partial index (migration 0010; on SQLite named: `openedIdsOnSqlite`).
 */
export const openedIds = (ctx: ReadContext) =>
  ctx.dialect === 'sqlite'
    ? openedIdsOnSqlite(ctx.account)
    : ctx.reads
        .selectFrom('collection_details')
        .select('collection_details.id')
        .where('collection_details.account', '=', ctx.account)
        .where('collection_details.type', '<>', 'integrated');

/**
 * How many rows a list narrowed by tags holds (no search, no contact, no change: those read few rows already),
 * counted from the tagged ids, each looked up by key, the other filters on the row: a probe of every row of
 * the account would read all of them. Null for any other list.
 */
export function taggedCount(ctx: ReadContext, filters: Filters): Promise<number> | null {
  if (!filters.tag?.length || filters.contact || changes(filters)) return null;
  const driven = ctx.reads
    .selectFrom(taggedIds(ctx, filters.tag).distinct().as('k'))
    .crossJoin('collections')
    .where('collections.account', '=', ctx.account)
    .whereRef('collections.id', '=', 'k.id')
    .where('collections.id', 'not in', openedIds(ctx)) as unknown as ListRows;
  return withFilters(ctx, driven, { ...filters, tag: undefined })
    .select(sql<number | string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.n));
}

/** A view's rows: the list's filters, and its search when it has one (`q`). */
export const viewRows = (ctx: ReadContext, filters: Filters, plan: SearchPlan | null) =>
  rows(ctx, filters, plan) as ListRows;
