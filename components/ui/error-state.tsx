'use client';

import { useEffect, useState } from 'react';
import type { ApiFailure } from '@/lib/api/failure';
import { Button } from './button';

/**
 * One error panel for every failure, worded by code (contract section 4): the
 * operator learns what to fix, the user learns whether waiting helps.
 */
function copyFor(failure: ApiFailure, secondsLeft: number) {
  switch (failure.code) {
    case 'upstream_auth':
      return {
        title: "The dashboard's API key was rejected",
        body: 'The upstream API refused the key this dashboard uses. An operator needs to check API_KEY (and API_KEY_HEADER) in the server environment.',
      };
    case 'rate_limited':
      return {
        title: 'Rate limited',
        body:
          secondsLeft > 0
            ? `The upstream API is rate limiting requests: rate limited, retry in ${secondsLeft} s.`
            : 'The upstream API was rate limiting requests. You can retry now.',
      };
    case 'upstream_timeout':
      return {
        title: 'The upstream API is slow',
        body: `${failure.message}. It may be overloaded; try again in a moment.`,
      };
    case 'upstream_unreachable':
    case 'upstream_error':
      return { title: 'The upstream API is down', body: `${failure.message}. Try again in a moment.` };
    case 'upstream_invalid':
      return {
        title: 'The upstream API sent data we cannot read',
        body: 'The answer did not match the API contract; the details are in the server log. Retrying may help if it was a passing fault.',
      };
    case 'index_unavailable':
      return { title: 'Search and filters are unavailable', body: failure.message };
    case 'index_busy':
      return { title: 'This search is too broad to answer quickly', body: failure.message };
    default:
      return { title: 'Something went wrong', body: failure.message };
  }
}

export function ErrorState({
  failure,
  onRetry,
  retrying = false,
}: {
  failure: ApiFailure;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  // Remount (key) per failure to restart the countdown.
  const [until] = useState(() => Date.now() + (failure.retryAfter ?? 0) * 1000);
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = Math.max(0, Math.ceil((until - now) / 1000));

  useEffect(() => {
    if (!failure.retryAfter) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [failure.retryAfter]);

  const { title, body } = copyFor(failure, secondsLeft);
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 p-5 text-red-950 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100"
    >
      <h2 className="font-semibold">{title}</h2>
      <p className="mt-1 text-sm" suppressHydrationWarning>
        {body}
      </p>
      <p className="mt-1 font-mono text-xs opacity-80">code: {failure.code}</p>
      {onRetry ? (
        <Button className="mt-4" onClick={onRetry} disabled={retrying}>
          {retrying ? 'Retrying…' : 'Retry'}
        </Button>
      ) : null}
    </div>
  );
}
