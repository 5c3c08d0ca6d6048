import type { ListParams } from '@/lib/api/params';

/** The one query-key factory: prefetch, hooks and invalidation all build keys here. */
export const queryKeys = {
  collections: ['collections'] as const,
  collectionList: (params: ListParams) => ['collections', 'list', { page: params.page, limit: params.limit }] as const,
  collection: (id: string) => ['collections', 'detail', id] as const,
  provider: (id: string) => ['providers', 'detail', id] as const,
};
