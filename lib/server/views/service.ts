import 'server-only';
import { appAccountKey } from '../accounts/app-key';
import type { ListState } from '@/lib/api/list-state';
import type { Clock } from '../clock';
import type { AppDb } from '../database/connect';
import { countNow, type IndexCounts } from './count-now';
import { createViewStore } from './store';

/**
 * Saved views as the runtime builds them: the store over the application's database, and the counts the
 * Views menu and the navigation's pins show, from the index (a filter's, search's or sort's count) or the
 * upstream's list (a view of the whole list), each kept for COUNT_TTL_MS so a page that shows five pins
 * does not count five views on every load.
 */
export const COUNT_TTL_MS = 30_000;
const COUNTS_KEPT = 500;

export type ViewCount = { count: number | null; asOf: string | null };

/** The account views belong to (accounts/app-key.ts). */
export const viewAccount = appAccountKey;

export function createViews(deps: {
  database: () => Promise<AppDb>;
  /** Where the views are read (store.ts): the database's reads connection; `database` when not given. */
  reads?: () => Promise<AppDb>;
  /** Where a view's count comes from (the runtime hands in the index service). */
  index: IndexCounts;
  clock: Clock;
  upstreamKey: string;
}) {
  const store = createViewStore(deps.database, deps.clock.now, deps.reads);
  const counts = new Map<string, { at: number; value: Promise<ViewCount> }>();

  return {
    account: viewAccount(deps.upstreamKey),
    store,
    /** How many collections a view's state holds, as of when: cached a while; null when it cannot be known. */
    count(key: string, state: ListState): Promise<ViewCount> {
      const now = deps.clock.now();
      const hit = counts.get(key);
      if (hit && now - hit.at < COUNT_TTL_MS) return hit.value;
      const value = countNow(deps.index, state).catch(() => ({ count: null, asOf: null }));
      if (counts.size >= COUNTS_KEPT) counts.delete(counts.keys().next().value!);
      counts.set(key, { at: now, value });
      return value;
    },
  };
}

export type Views = ReturnType<typeof createViews>;
