import 'server-only';
import type { SearchState } from '@/lib/api/list-state';
import { MATCHED_FIELDS, type MatchedField } from '@/lib/api/summary';
import type { RequestContext } from '../context';
import { reachableAccounts } from './accounts';
import { AppError, toFailure } from '../errors';
import type { Runtime } from '../runtime';
import { searchCollections } from './collections';

/** How far a search of every account pages: each account is read up to here, then the lists are merged. */
export const EVERY_ACCOUNT_MAX_ROWS = 500;

const rankOf = (matched: readonly MatchedField[] | undefined) =>
  Math.min(
    ...(matched ?? []).map((m) => (MATCHED_FIELDS as readonly MatchedField[]).indexOf(m)).filter((i) => i >= 0),
    MATCHED_FIELDS.length,
  );

/** What a search of every account says of each account: its name, how many it matched, or why it could not. */
export type AccountMatches = { id: string; name: string; mode: 'live' | 'test'; count: number | null; error?: string };

/**
 * `/search?account=all` and `/api/search?account=all` (contract section 7a): the search in every account the user
 * may see, each audited in its account as a search of its own, merged as the search ranks within one account
 * (by what matched: an id before an e-mail before a name), an account's own order kept within a kind. Each row
 * names its `account`. One account's index failing leaves its rows out and says so in `meta.accounts`; all
 * failing is that failure.
 */
export async function searchEveryAccount(rt: Runtime, context: RequestContext, state: SearchState & { q: string }) {
  const reach = state.page * state.limit;
  if (reach > EVERY_ACCOUNT_MAX_ROWS)
    throw new AppError(
      'bad_request',
      `Invalid page: a search of every account shows its first ${EVERY_ACCOUNT_MAX_ROWS} results; narrow the search or open one account`,
    );
  const targets = await reachableAccounts(rt, context);
  const answers = await Promise.all(
    targets.map(async ({ slice, there }) => {
      try {
        const found = await searchCollections(rt.forAccount(slice.account.id), there, {
          ...state,
          page: 1,
          limit: reach,
        });
        return { account: slice.account, found, failure: null };
      } catch (error) {
        return { account: slice.account, found: null, failure: toFailure(error, 'collections') };
      }
    }),
  );
  const answered = answers.filter((a) => a.found);
  if (!answered.length) {
    const failure = answers[0]?.failure;
    throw failure
      ? new AppError(failure.code, failure.message)
      : new AppError('forbidden_account', 'You may see no account');
  }
  const rows = answered
    .flatMap(({ account, found }) =>
      found!.data.map((row, position) => ({ row: { ...row, account: account.id }, position })),
    )
    .map((entry, order) => ({ ...entry, order, rank: rankOf(entry.row.matched) }))
    .sort((a, b) => a.rank - b.rank || a.position - b.position || a.order - b.order)
    .map(({ row }) => row);
  const count = answered.reduce((sum, a) => sum + a.found!.meta.count, 0);
  const start = (state.page - 1) * state.limit;
  const asOfs = answered.map((a) => a.found!.meta.asOf).filter((v): v is string => Boolean(v));
  return {
    status: 'success' as const,
    message: 'Search results from the index, every account',
    data: rows.slice(start, start + state.limit),
    meta: {
      count,
      next: state.page * state.limit < Math.min(count, EVERY_ACCOUNT_MAX_ROWS) ? state.page + 1 : null,
      prev: state.page > 1 ? state.page - 1 : null,
      source: 'index' as const,
      // The stalest account's: every row is at least this fresh.
      asOf: asOfs.sort()[0] ?? null,
      coverage: Math.min(...answered.map((a) => a.found!.meta.coverage ?? 1)),
      accounts: answers.map(({ account, found, failure }): AccountMatches => ({
        id: account.id,
        name: account.name,
        mode: account.mode,
        count: found ? found.meta.count : null,
        ...(failure ? { error: failure.message } : {}),
      })),
    },
  };
}
