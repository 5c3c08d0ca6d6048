import 'server-only';
import { isIndexed, type ListState } from '@/lib/api/list-state';
import type { ViewCount } from './service';

/**
 * What a view's count needs of the index, and no more: its status and a count of a list state. The runtime
 * hands the index service in; views never import the index (features stand apart).
 */
export type IndexCounts = {
  status(): Promise<{ state: string; upstreamCount: number | null; lastPollAt: string | null; asOf: string | null }>;
  queries(): Promise<{
    search(q: string, state: ListState, page: number, limit: number): Promise<{ count: number }>;
    list(state: ListState, page: number, limit: number): Promise<{ count: number }>;
  }>;
};

/**
 * How many collections a list state holds now, as of when: the upstream's count for the whole list (what
 * the list itself shows), the index's for a filter, search or sort; unknown while the index is off.
 */
export async function countNow(index: IndexCounts, state: ListState): Promise<ViewCount> {
  const status = await index.status();
  if (!isIndexed(state)) return { count: status.upstreamCount, asOf: status.lastPollAt ?? status.asOf };
  if (status.state === 'off') return { count: null, asOf: null };
  const queries = await index.queries();
  const page = state.q ? await queries.search(state.q, state, 1, 1) : await queries.list(state, 1, 1);
  return { count: page.count, asOf: status.asOf };
}
