import { defaultShouldDehydrateQuery, environmentManager, QueryClient } from '@tanstack/react-query';
import type { ApiFailure } from '@/lib/api/failure';

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiFailure;
  }
}

/**
 * One QueryClient per server request, one for the browser's lifetime. Failed
 * server prefetches are dehydrated too, so the page shows the error state the
 * server saw instead of silently asking again.
 */
function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // The server already retried transient upstream failures; the user decides now.
        retry: false,
        retryOnMount: false,
        refetchOnWindowFocus: false,
      },
      dehydrate: {
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === 'error',
        shouldRedactErrors: () => false,
      },
    },
  });
}

let browserClient: QueryClient | undefined;

export function getQueryClient() {
  if (environmentManager.isServer()) return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}
