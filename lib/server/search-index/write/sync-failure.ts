import 'server-only';
import type { ErrorCode } from '@/lib/api/error-codes';
import { pastEnd, stamp, type SyncRun } from './sync-state';

/**
 * A failed upstream request: how long the sync waits, and what becomes of the page. 429 waits out
 * Retry-After; the key rejected (upstream_auth, forbidden) waits `AUTH_RETRY_MS`; anything else backs off
 * exponentially (1 s doubling up to `MAX_BACKOFF_MS`). A scan page that fails `ATTEMPTS_PER_PAGE` times in a
 * row is set aside and retried at the end of the scan; a poll that does is skipped until the next.
 */
const AUTH_RETRY_MS = 60_000;
const MAX_BACKOFF_MS = 60_000;
const ATTEMPTS_PER_PAGE = 3;

type Failure = { code?: ErrorCode; retryAfter?: number };

/** On a failed request: how long to wait, and what the scan does with its page. */
export async function onFailure(run: SyncRun, error: unknown, polling: boolean): Promise<number> {
  const { code, retryAfter } = (error ?? {}) as Failure;
  const { deps, fault } = run;
  const now = deps.now();
  fault.lastErrorCode = code ?? 'upstream_error';
  fault.failures++;
  const errorCode = fault.lastErrorCode;
  await stamp(run)
    .then((at) => deps.store.saveState({ error_code: errorCode, error_at: at }))
    .catch(() => {});
  if (code === 'rate_limited') {
    const wait = Math.max(1, retryAfter ?? 60) * 1000;
    deps.log?.warn({ retryAfterS: wait / 1000 }, 'index sync: rate limited, waiting');
    fault.blockedUntil = now + wait;
    return wait;
  }
  if (code === 'upstream_auth' || code === 'forbidden') {
    deps.log?.warn({ code }, 'index sync: the upstream refused the key; retrying in a minute');
    fault.blockedUntil = now + AUTH_RETRY_MS;
    return AUTH_RETRY_MS;
  }
  const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(fault.failures - 1, 6));
  deps.log?.warn({ code: fault.lastErrorCode, backoffMs: backoff }, 'index sync: upstream request failed');
  if (polling) skipFailingPoll(run, now);
  else await setFailingPageAside(run);
  fault.blockedUntil = now + backoff;
  return backoff;
}

/** A head that keeps failing must not stall the scan: this poll is skipped, the next is tried when due. */
function skipFailingPoll({ poll, deps }: SyncRun, now: number) {
  if (++poll.attempts < ATTEMPTS_PER_PAGE) return;
  poll.stage = null;
  poll.attempts = 0;
  poll.nextAt = now + deps.pollMs;
}

/**
 * A scan page that keeps failing is set aside (the scan moves past it, and retries it at its end); past the
 * end, a set-aside page that keeps failing ends a round of retrying them.
 */
async function setFailingPageAside({ scan, deps }: SyncRun) {
  scan.pageAttempts++;
  const state = await deps.store.state();
  if (pastEnd(state)) {
    if (scan.pageAttempts >= ATTEMPTS_PER_PAGE) {
      scan.missedRounds++;
      scan.pageAttempts = 0;
    }
  } else if (scan.pageAttempts >= ATTEMPTS_PER_PAGE) {
    const missed = [...(JSON.parse(state.scan_missed) as number[]), state.scan_page];
    await deps.store.saveState({ scan_page: state.scan_page + 1, scan_missed: JSON.stringify(missed) });
    scan.pageAttempts = 0;
  }
}
