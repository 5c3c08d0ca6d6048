/**
 * What the index serves for a collection (contract section 7): a summary, not
 * the record. Types only, shared by the server's queries and the components
 * that render them.
 */
export type MatchedField = 'id' | 'email' | 'phone' | 'phoneLast4' | 'reference' | 'name';

export type CollectionSummary = {
  id: string;
  reference: string;
  type: string;
  status: string;
  amount: { value: number; currency: string };
  contact: { firstName: string; lastName: string };
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  lineItemCount: number;
};

/** A search result: the summary and what it matched on. */
export type SearchHit = CollectionSummary & { matched: MatchedField[] };
