import 'server-only';
import type { OwnerAccount } from '@/lib/api/failure';
import { audit, outcomeOf } from '../audit/audit';
import type { RequestContext } from '../context';
import { reachableAccounts, type AccountReach } from './accounts';
import { probeRecord } from '../data';
import { AppError } from '../errors';
import type { Runtime } from '../runtime';

/** The most other accounts one refused record asks, and the longest it waits for them (the hint is a bonus). */
export const OWNER_ASK_MAX = 20;
export const OWNER_ASK_MS = 3_000;

/**
 * A record read whose 403 says whose the record is (contract section 4): when the request's account is refused
 * it, the other accounts the user may see are asked at once, in parallel; the first that reads it is the owner,
 * and the rest are cancelled. Each ask is audited in its account (`find_owner`). None owns it, or none answers
 * in time: the refusal as it was.
 */
export async function withOwnerHint<T>(
  rt: Runtime,
  context: RequestContext,
  kind: 'collection' | 'provider',
  id: string,
  read: () => Promise<T>,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'forbidden' || !rt.config.multiAccount) throw error;
    const owner = await findOwner(rt, context, kind, id);
    if (!owner) throw error;
    throw new AppError('forbidden', `This ${kind} belongs to ${owner.name}`, { ownerAccount: owner });
  }
}

export async function findOwner(
  rt: Runtime,
  context: RequestContext,
  kind: 'collection' | 'provider',
  id: string,
): Promise<OwnerAccount | null> {
  const asks = (await reachableAccounts(rt, context, context.account)).slice(0, OWNER_ASK_MAX);
  if (!asks.length) return null;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), Math.min(rt.config.upstream.timeoutMs, OWNER_ASK_MS));
  try {
    // The accounts whose index has seen the collection are asked first (a local read, no upstream call), so a
    // hint usually costs one upstream answer; the rest only when none of those owns it.
    const seen = kind === 'collection' ? await Promise.all(asks.map(({ slice }) => indexHas(slice, id))) : [];
    const first = asks.filter((_, i) => seen[i]);
    const rest = asks.filter((_, i) => !seen[i]);
    return (
      (first.length ? await probeAll(rt, first, kind, id, stop) : null) ??
      (stop.signal.aborted ? null : await probeAll(rt, rest, kind, id, stop))
    );
  } finally {
    clearTimeout(timer);
  }
}

type Ask = AccountReach;

/** Whether an account's index has seen the collection (false when it cannot say). */
async function indexHas(slice: Ask['slice'], id: string): Promise<boolean> {
  try {
    return (await (await slice.index.queries()).lastSeen(id)) !== null;
  } catch {
    return false;
  }
}

/** Asks the accounts in parallel: the first that reads the record, or null once all have refused. */
function probeAll(
  rt: Runtime,
  asks: Ask[],
  kind: 'collection' | 'provider',
  id: string,
  stop: AbortController,
): Promise<OwnerAccount | null> {
  if (!asks.length) return Promise.resolve(null);
  return new Promise<OwnerAccount | null>((resolve) => {
    let left = asks.length;
    for (const { slice, there } of asks)
      probeRecord(rt.forAccount(slice.account.id), there, kind, id, stop.signal).then(
        () => {
          audit(rt.audit, there, 'find_owner', id, 'ok');
          resolve({ id: slice.account.id, name: slice.account.name });
          stop.abort();
        },
        (error: unknown) => {
          audit(rt.audit, there, 'find_owner', id, stop.signal.aborted ? 'cancelled' : outcomeOf(error));
          if (--left === 0) resolve(null);
        },
      );
  });
}
