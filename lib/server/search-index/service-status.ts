import 'server-only';
import type { ErrorCode } from '@/lib/api/error-codes';
import type { Clock } from '../clock';
import { codeOf } from '../database/database';
import type { IndexQueries } from './read';
import type { Supervisor } from './service-supervisor';
import { isErrorState } from './write/sync';

/**
 * What the index says about itself (`/api/index/status`, `/status`, the freshness line, the gauges), read at
 * most every 2 s; and the filter menus' counts, at most every 30 s and served stale while a fresh count
 * runs (a count of a million rows is not for every page view).
 */
export type IndexState = 'off' | 'building' | 'ready' | 'error';

export type IndexStatus = {
  state: IndexState;
  /** Collections the list returns that the index holds (the share of `upstreamCount` it has). */
  indexed: number;
  /** Collections the list does not return, indexed because a user opened them by their id. */
  openedById: number;
  upstreamCount: number | null;
  coverage: number;
  lastFullScanAt: string | null;
  lastPollAt: string | null;
  asOf: string | null;
  /**
   * When `indexed`, `openedById` and `upstreamCount` were read, together (one statement): what a page showing
   * them says they are "as of". Null when there are no figures.
   */
  countedAt: string | null;
  error?: ErrorCode;
  /** Why the index is off, or what it is doing about a fault: for the operator, in plain words. */
  reason?: string;
};

const STATUS_TTL_MS = 2_000;
const FACETS_TTL_MS = 30_000;

/** A status with no figures: the index off, or its store unreadable. */
const nothingYet = (state: 'off' | 'error', reason: string): IndexStatus => ({
  state,
  indexed: 0,
  openedById: 0,
  upstreamCount: null,
  coverage: 0,
  lastFullScanAt: null,
  lastPollAt: null,
  asOf: null,
  countedAt: null,
  reason,
});

type Facets = Awaited<ReturnType<IndexQueries['facets']>>;

export function createStatusReader({ supervisor, clock }: { supervisor: Supervisor; clock: Clock }) {
  let cached: { at: number; status: IndexStatus } | null = null;
  let facets: { at: number; value: Promise<Facets> } | null = null;
  supervisor.onChange(() => {
    cached = null;
  });

  async function status(): Promise<IndexStatus> {
    await supervisor.checkHealth().catch(() => {});
    if (cached && clock.now() - cached.at < STATUS_TTL_MS) return cached.status;
    if (!supervisor.current()) await supervisor.opening();
    const running = supervisor.current();
    if (!running) return nothingYet('off', supervisor.offReason() ?? 'The index is starting.');
    const { store, sync } = running;
    try {
      // "237 of 237 indexed + 1 opened by id", never "238 of 237": the roll-ups count listed collections only,
      // and the three figures are one reading (maintenance-counts.ts `statusFigures`).
      const countedAt = new Date(clock.now()).toISOString();
      const { state, indexed, openedById } = await store.statusFigures();
      const error = isErrorState(state, sync.snapshot().failures) ? (state.error_code as ErrorCode) : undefined;
      // Every listed collection the index holds was in the upstream's list when read, so the list holds at least
      // `indexed`: a count read before the newest of them (one opened by its id the moment it was created, before
      // a poll or a list page counted it) is behind, not smaller. The count is written with the rows that came
      // with it (records-upsert.ts), so this is for that moment only.
      const upstreamCount = state.upstream_count === null ? null : Math.max(state.upstream_count, indexed);
      const coverage = upstreamCount === null ? 0 : upstreamCount === 0 ? 1 : Math.min(1, indexed / upstreamCount);
      const fresh: IndexStatus = {
        state: error ? 'error' : state.scans_completed > 0 ? 'ready' : 'building',
        indexed,
        openedById,
        upstreamCount,
        coverage: Math.round(coverage * 10_000) / 10_000,
        lastFullScanAt: state.last_full_scan_at,
        lastPollAt: state.last_poll_at,
        asOf: state.last_poll_at ?? state.last_full_scan_at,
        countedAt,
        ...(error ? { error } : {}),
        ...(error === 'upstream_auth'
          ? {
              reason:
                "The upstream API rejected the dashboard's API key; the index keeps its rows and retries every minute.",
            }
          : {}),
      };
      cached = { at: clock.now(), status: fresh };
      return fresh;
    } catch (error) {
      await supervisor.fault(error);
      // Turned off or reopened: ask again. Still the same store (an error that is no fault of the store's
      // own): say so rather than ask again forever.
      if (supervisor.current()?.store === store)
        return nothingYet('error', `The index could not be read (${codeOf(error)}).`);
      return status();
    }
  }

  return {
    status,
    /** Each status and currency with its count, for the filter menus (stale while a fresh count runs). */
    facets(queries: IndexQueries): Promise<Facets> {
      const now = clock.now();
      if (!facets) facets = { at: now, value: queries.facets() };
      else if (now - facets.at > FACETS_TTL_MS) {
        const fresh = queries.facets();
        facets.at = now;
        fresh.then((value) => void (facets = { at: now, value: Promise.resolve(value) })).catch(() => {});
      }
      return facets.value.catch((error: unknown) => {
        facets = null;
        throw error;
      });
    },
  };
}
