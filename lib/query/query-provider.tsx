'use client';

import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getQueryClient } from '@/lib/query/query-client';

export function QueryProvider({ children }: { children: ReactNode }) {
  // Not useState: React may drop state if the first render suspends (TanStack's SSR guide).
  const queryClient = getQueryClient();
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
