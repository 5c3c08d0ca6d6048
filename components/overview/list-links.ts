import { collectionsHref, defaults, listStateSchema, type ListState } from '@/lib/api/list-state';
import type { Overview, Range } from '@/lib/api/overview';

/**
 * The collections list with these filters (everything else at its default), and the overview's tags when it is
 * narrowed to some (`tag=`): a figure's link lists the rows it counts.
 */
export const listHref = (filters: Partial<ListState>, tag?: string[]) =>
  collectionsHref({ ...defaults(listStateSchema), ...filters, ...(tag?.length ? { tag } : {}) });

/** Created in the range (all time: no bound), as the completion rate counts them. */
export const createdInRange = (range: Range, span: Overview['range']): Partial<ListState> =>
  range === 'all' ? {} : { createdFrom: span.from!, createdTo: span.to };

/**
 * Completed in the range: those with a completion time in it (all time: since the first collection was
 * created, so every completed one), whatever their status now, as the figure counts them.
 */
export const completedInRange = (range: Range, span: Overview['range']): Partial<ListState> => ({
  completedFrom: span.from ?? span.to,
  ...(range === 'all' ? {} : { completedTo: span.to }),
});
