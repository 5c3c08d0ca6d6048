'use client';

import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import type { ApiFailure } from '@/lib/api/failure';
import { ErrorState } from './error-state';

/** A server page's upstream failure, with Retry re-rendering the page on the server. */
export function DetailError({ failure }: { failure: ApiFailure }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return <ErrorState failure={failure} retrying={pending} onRetry={() => startTransition(() => router.refresh())} />;
}
