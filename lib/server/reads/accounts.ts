import 'server-only';
import { contextInAccount, type RequestContext } from '../context';
import type { Runtime } from '../runtime';

/** One of the user's accounts: its slice of the runtime and the user's context there (their role in it). */
export type AccountReach = { slice: Runtime['slices'][number]; there: RequestContext };

/**
 * The accounts the context's user may see, in configuration order, each with the user's context there: what a
 * read of every account (search, overview, status) or the owner hint walks. `except` leaves the current one out.
 */
export async function reachableAccounts(
  rt: Runtime,
  context: RequestContext,
  except?: string,
): Promise<AccountReach[]> {
  const slices = rt.slices.filter((slice) => slice.account.id !== except);
  const reached = await Promise.all(
    slices.map(async (slice) => ({ slice, there: await contextInAccount(context, slice.account.id) })),
  );
  return reached.filter((r): r is AccountReach => r.there !== null);
}
