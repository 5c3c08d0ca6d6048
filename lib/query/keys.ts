import type { ListState } from '@/lib/api/list-state';

/** The one query-key factory: prefetch, hooks and invalidation all build keys here. */
export const queryKeys = {
  collectionList: (state: ListState) => ['collections', 'list', { ...state }] as const,
};
