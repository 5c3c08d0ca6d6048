import 'server-only';
import type { Collection } from '@/lib/api/schemas';

/**
 * The live export's reader: the upstream's list, page after page, at the
 * sync's pace. A 429 waits as long as the upstream asks and goes on; a
 * passing failure (unreachable, 5xx, timeout) is tried three more times;
 * anything else ends the read with that error, so the caller never hands out
 * a file it knows is short. Aborting stops it between requests and in its waits.
 */
export type LivePage = { data: Collection[]; meta: { count: number; next: number | null } };
type Failure = { code?: string; retryAfter?: number };

export type LivePagesDeps = {
  read(page: number, signal: AbortSignal): Promise<LivePage>;
  /** Upstream list requests per second (the sync's `INDEX_SYNC_RPS`). */
  rps: number;
  /** Rows at most. */
  max: number;
  signal: AbortSignal;
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  onWait?(reason: 'rate_limited' | 'retry', ms: number): void;
};

export const PAGE_SIZE = 100;
const TRANSIENT = new Set(['upstream_unavailable', 'upstream_timeout', 'upstream_error']);
const TRANSIENT_TRIES = 3;
const RATE_LIMIT_WAITS = 10;
const MAX_WAIT_MS = 60_000;

export type LiveBatch = { records: Collection[]; count: number; fetchedAt: string };

export async function* livePages(deps: LivePagesDeps): AsyncGenerator<LiveBatch> {
  const pace = Math.ceil(1000 / deps.rps);
  const seen = new Set<string>();
  let nextAt = 0;
  let page = 1;
  let delivered = 0;
  for (;;) {
    let transient = 0;
    let limited = 0;
    let result: LivePage;
    for (;;) {
      deps.signal.throwIfAborted();
      const wait = nextAt - deps.now();
      if (wait > 0) await deps.sleep(wait, deps.signal);
      nextAt = deps.now() + pace;
      try {
        result = await deps.read(page, deps.signal);
        break;
      } catch (error) {
        deps.signal.throwIfAborted();
        const { code, retryAfter } = (error ?? {}) as Failure;
        if (code === 'rate_limited' && ++limited <= RATE_LIMIT_WAITS) {
          const ms = Math.min(MAX_WAIT_MS, Math.max(1, retryAfter ?? 5) * 1000);
          deps.onWait?.('rate_limited', ms);
          nextAt = deps.now() + ms;
          continue;
        }
        if (code && TRANSIENT.has(code) && ++transient <= TRANSIENT_TRIES) {
          const ms = 1000 * 2 ** (transient - 1);
          deps.onWait?.('retry', ms);
          nextAt = deps.now() + ms;
          continue;
        }
        throw error;
      }
    }
    // A record that moved to the next page while we read (new ones arrive at the head) is written once.
    const records = result.data.filter((c) => !seen.has(c.id)).slice(0, deps.max - delivered);
    for (const c of records) seen.add(c.id);
    delivered += records.length;
    yield { records, count: result.meta.count, fetchedAt: new Date(deps.now()).toISOString() };
    if (result.meta.next === null || delivered >= deps.max || delivered >= result.meta.count) return;
    page = result.meta.next;
  }
}

/** A wait that an abort ends at once. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
