import 'server-only';
import type { AccountStatus } from '@/components/status/accounts-status';
import { withAccount } from '@/lib/accounts/href';
import type { RequestContext } from '../context';
import { reachableAccounts } from './accounts';
import type { Runtime } from '../runtime';

/** An unknown id or another account's (404, 403) is a user's lookup answered, not an upstream fault. */
const LOOKUPS = new Set(['ok', 'not_found', 'forbidden']);

/**
 * `/status` with several accounts: each account the user may see, its index (rows, coverage, freshness), who
 * syncs it, and its upstream's last five minutes: reads, errors, a rejected key. Each from its own slice, so
 * one account's fault is on its line only.
 */
export async function accountsStatus(rt: Runtime, context: RequestContext): Promise<AccountStatus[]> {
  const visible = await reachableAccounts(rt, context);
  return Promise.all(
    visible.map(async ({ slice: { account, index } }) => {
      const status = await index.status().catch(() => null);
      const { syncing } = index.whereAndWho();
      const window = rt.metrics.upstreamWindow(undefined, account.id);
      const errors = Object.entries(window.outcomes)
        .filter(([outcome]) => !LOOKUPS.has(outcome))
        .reduce((n, [, count]) => n + count, 0);
      return {
        id: account.id,
        name: account.name,
        mode: account.mode,
        href: withAccount('/status', account.id),
        state: status?.state ?? 'unreadable',
        indexed: status?.indexed ?? 0,
        coverage: status?.coverage ?? 0,
        asOf: status?.asOf ?? null,
        sync:
          syncing === null
            ? (status?.reason ?? 'Not running')
            : syncing
              ? 'Run by this dashboard'
              : 'Run by another replica',
        reads: window.reads,
        errors,
        keyRejected: (window.outcomes.upstream_auth ?? 0) > 0,
      };
    }),
  );
}
