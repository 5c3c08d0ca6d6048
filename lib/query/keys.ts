import type { ListPath, ListState } from '@/lib/api/list-state';

/** The one query-key factory: prefetch, hooks and invalidation all build keys here. */
export const queryKeys = {
  collectionList: (path: ListPath, state: ListState) => ['collections', 'list', path, { ...state }] as const,
};
