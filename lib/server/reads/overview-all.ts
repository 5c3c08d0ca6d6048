import 'server-only';
import type { AccountOverview, Range } from '@/lib/api/overview';
import type { RequestContext } from '../context';
import { reachableAccounts } from './accounts';
import { toFailure } from '../errors';
import type { Runtime } from '../runtime';
import { indexOverview } from './collections';

/**
 * `/overview?account=all`: the overview of every account the user may see, side by side (each read from its own
 * index and audited in its account). Figures are put together per currency only, never across currencies; an
 * account whose index cannot answer is listed with why, and the others stand.
 */
export async function overviewEveryAccount(rt: Runtime, context: RequestContext, range: Range) {
  const targets = await reachableAccounts(rt, context);
  return Promise.all(
    targets.map(async ({ slice, there }): Promise<AccountOverview> => {
      const { id, name, mode } = slice.account;
      try {
        const { data } = await indexOverview(rt.forAccount(id), there, range, 'none');
        return { account: { id, name, mode }, overview: data, error: null };
      } catch (error) {
        return { account: { id, name, mode }, overview: null, error: toFailure(error, 'collections').message };
      }
    }),
  );
}
