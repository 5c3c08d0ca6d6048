'use client';

import { QueryClientProvider } from '@tanstack/react-query';
import { NuqsAdapter } from 'nuqs/adapters/next/app';
import type { ReactNode } from 'react';
import { getQueryClient } from '@/lib/query/query-client';

export function Providers({ children }: { children: ReactNode }) {
  // Not useState: React may drop state if the first render suspends (TanStack's SSR guide).
  const queryClient = getQueryClient();
  return (
    <QueryClientProvider client={queryClient}>
      <NuqsAdapter>{children}</NuqsAdapter>
    </QueryClientProvider>
  );
}
