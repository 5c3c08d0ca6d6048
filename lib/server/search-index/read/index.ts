import 'server-only';
import { readContext, type IndexReads } from './context';
import type { Tuning } from './tuning';
import { contactOverview } from './contact';
import { exportCountQuery, exportQuery } from './export-queries';
import { facets } from './facets';
import { collectionHistory, statusChanges } from './history';
import { createOverview } from './overview';
import { phoneCountries, planOf } from './plan-of';
import { lastSeen, listCollections, searchCollections } from './search';
import { viewIds } from './view-ids';

export type { CollectionSummary, MatchedField, SearchHit } from '@/lib/api/summary';
export type { IndexPage } from './page';
export { isRanked, RANK, readsAsPhone, searchPlan, trigramQuery, type SearchPlan } from './plan';
export type { ExportRow } from './rows-types';
export type { ContactOverview } from './contact';
export type { CollectionHistoryEntry } from './history';

/**
 * One store's reads, bound to its read context: what the index service hands a request. The reads
 * themselves are plain functions over a `ReadContext` in read/ (one file per job).
 */
export function createQueries(store: IndexReads, tuning: Partial<Tuning> = {}, tagAccount = '') {
  const ctx = readContext(store, tuning, tagAccount);
  return {
    /** The overview's figures (contract section 8), from the roll-ups. */
    overview: createOverview(ctx),
    search: searchCollections.bind(null, ctx),
    lastSeen: lastSeen.bind(null, ctx),
    history: collectionHistory.bind(null, ctx),
    contact: contactOverview.bind(null, ctx),
    statusChanges: statusChanges.bind(null, ctx),
    list: listCollections.bind(null, ctx),
    exportQuery: exportQuery.bind(null, ctx),
    exportCountQuery: exportCountQuery.bind(null, ctx),
    phoneCountries: phoneCountries.bind(null, ctx),
    plan: planOf.bind(null, ctx),
    facets: facets.bind(null, ctx),
    ids: viewIds.bind(null, ctx),
  };
}

export type IndexQueries = ReturnType<typeof createQueries>;
