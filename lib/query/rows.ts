import type { CollectionSummary, MatchedField } from '@/lib/api/summary';
import type { ErrorCode } from '@/lib/api/error-codes';
import type { Collection, ListMeta } from '@/lib/api/schemas';
import type { RowAnnotations, TagColour } from '@/lib/api/annotations';

/**
 * What one row of the collections list shows, and nothing else: the one row type of every collections
 * view (the live list, a filtered, sorted or searched one, search results). The list's cache holds rows,
 * not records: the server's prefetch is serialised into the HTML, and a full record is three times the
 * bytes of its row.
 */
export type CollectionRow = {
  id: string;
  /** A search of every account: the account the row is in (its links open it there). */
  account?: string;
  reference: string;
  /** E-mail and phone as the reader may see them (contract section 7a): one rule for the live list and the index. */
  contact: { firstName: string; lastName: string; email: string; phone: string; id?: string };
  amount: { value: number; currency: string };
  status: string;
  /** Null on an index row written before the index kept methods (until its next scan). */
  payable: { methods: string[] } | null;
  followUp: { enabled: boolean; channels: string[] } | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  /** How many line items the record has (the Line items column). */
  lineItems: number;
  type: string;
  /** What a search matched on (search results only). */
  matched?: MatchedField[];
  /** Its tags and whether it has notes (section 16: the page's `meta.annotations`); absent when it has neither. */
  tags?: { name: string; colour: TagColour }[];
  notes?: boolean;
};

/** Why a live list's page came from the index (the upstream's list failed), and how fresh the index is. */
export type RowFallback = { code: ErrorCode; asOf: string | null; indexed: number; upstreamCount: number | null };

export type RowPage = {
  data: CollectionRow[];
  meta: Pick<ListMeta, 'count' | 'next' | 'prev'> & { fallback?: RowFallback };
};

/** A live record's row. */
export function toRow(c: Collection): CollectionRow {
  return {
    id: c.id,
    reference: c.reference,
    contact: {
      firstName: c.contact.firstName,
      lastName: c.contact.lastName,
      email: c.contact.email,
      phone: c.contact.phone,
      id: c.contact.id,
    },
    amount: { value: c.amount.value, currency: c.amount.currency },
    status: c.status,
    payable: { methods: c.payable.methods },
    followUp: { enabled: c.followUp.enabled, channels: c.followUp.channels },
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    completedAt: c.completedAt,
    lineItems: c.metadata.length,
    type: c.type,
  };
}

/** An index summary's row: the same columns, from what the index keeps. */
export function summaryRow(s: CollectionSummary & { matched?: MatchedField[]; account?: string }): CollectionRow {
  return {
    id: s.id,
    reference: s.reference,
    contact: {
      firstName: s.contact.firstName,
      lastName: s.contact.lastName,
      email: s.contact.email,
      phone: s.contact.phone,
      ...(s.contact.id ? { id: s.contact.id } : {}),
    },
    amount: s.amount,
    status: s.status,
    payable: s.payable,
    followUp: s.followUp,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    completedAt: s.completedAt,
    lineItems: s.lineItemCount,
    type: s.type,
    ...(s.matched ? { matched: s.matched } : {}),
    ...(s.account ? { account: s.account } : {}),
  };
}

type Page<T> = {
  data: T[];
  meta: { count: number; next: number | null; prev: number | null; [more: string]: unknown };
  [more: string]: unknown;
};

/** A page of the live list or of the index, as the list's rows. */
export function toRowPage({ data, meta }: Page<Collection> | Page<CollectionSummary>): RowPage {
  const annotations = (meta.annotations ?? {}) as Record<string, RowAnnotations>;
  const rows = (data as (Collection | CollectionSummary)[]).map((item) => {
    // A live record carries its line items (`metadata`); a summary only counts them.
    const row = 'metadata' in item ? toRow(item) : summaryRow(item);
    const added = annotations[row.id];
    return added
      ? { ...row, ...(added.tags.length ? { tags: added.tags } : {}), ...(added.notes ? { notes: true } : {}) }
      : row;
  });
  // Contract 15: `meta.fallback` is the upstream's error code; the index's freshness sits beside it.
  const fallback: RowFallback | undefined =
    typeof meta.fallback === 'string'
      ? {
          code: meta.fallback as ErrorCode,
          asOf: typeof meta.asOf === 'string' ? meta.asOf : null,
          indexed: typeof meta.indexed === 'number' ? meta.indexed : 0,
          upstreamCount: typeof meta.upstreamCount === 'number' ? meta.upstreamCount : null,
        }
      : undefined;
  return {
    data: rows,
    meta: { count: meta.count, next: meta.next, prev: meta.prev, ...(fallback ? { fallback } : {}) },
  };
}
