'use client';

import { useRouter } from '@/components/account/account-scope';
import { startTransition, useEffect } from 'react';
import { ErrorState } from '@/components/ui/error-state';

/** Last line of defence inside the shell: an unexpected error gets a panel and Retry, never a blank page. */
export default function RouteError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  // The server logged the full error under this digest; the browser's console gets the digest to match it.
  useEffect(
    () => console.error('Page failed to render', error.digest ? `(digest ${error.digest})` : '', error),
    [error],
  );
  return (
    <ErrorState
      failure={{ code: 'upstream_error', message: 'This page failed to render' }}
      onRetry={() =>
        startTransition(() => {
          router.refresh();
          reset();
        })
      }
    />
  );
}
