/**
 * What the index serves for a collection (contract section 7): a summary, not
 * the record. Types only, shared by the server's queries and the components
 * that render them.
 */
/** In the search's own order of kinds (an id first, the part before an e-mail's @ last). */
export const MATCHED_FIELDS = [
  'id',
  'email',
  'phone',
  'phoneLast4',
  'phoneNational',
  'reference',
  'referencePart',
  'name',
  'namePrefix',
  'nameSounds',
  'emailLocal',
] as const;
export type MatchedField = (typeof MATCHED_FIELDS)[number];

export type CollectionSummary = {
  id: string;
  reference: string;
  type: string;
  status: string;
  amount: { value: number; currency: string };
  /**
   * Opened from the sealed contact per request, for the rows shown (contract section 7a): the names, the
   * e-mail and phone as the reader may see them (in full, or masked for a viewer under
   * `VIEWER_CONTACT_DETAILS=masked`), and always masked (first character and domain; country code and
   * last four digits).
   */
  contact: {
    firstName: string;
    lastName: string;
    email: string;
    phone: string;
    emailMasked: string;
    phoneMasked: string;
    /** The upstream's contact id (its page: `/contacts/{id}`); absent on a row sealed before contact pages. */
    id?: string;
  };
  /** The list's Methods column; null on a row the index has not rewritten since it began keeping them. */
  payable: { methods: string[] } | null;
  /** The list's Follow-up column; null as `payable`. */
  followUp: { enabled: boolean; channels: string[] } | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  lineItemCount: number;
};

/** A search result: the summary and what it matched on. */
export type SearchHit = CollectionSummary & { matched: MatchedField[] };

/**
 * How the index read a search that found nothing (contract section 7a): what the text was read as, and
 * searches worth trying next, each with why.
 */
export type SearchReading = { readAs: string[]; next: { q: string; why: string }[] };
