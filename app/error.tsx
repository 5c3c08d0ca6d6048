'use client';

import { useRouter } from 'next/navigation';
import { startTransition } from 'react';
import { ErrorState } from '@/components/ui/error-state';

/** Last line of defence inside the shell: an unexpected error gets a panel and Retry, never a blank page. */
export default function RouteError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  return (
    <ErrorState
      failure={{ code: 'upstream_error', message: 'This page failed to render' }}
      onRetry={() => startTransition(() => { router.refresh(); reset(); })}
    />
  );
}
