import type { CollectionListEnvelope } from '@/lib/api/envelopes';
import type { Collection, ListMeta } from '@/lib/api/schemas';

/**
 * What one row of the collections table shows, and nothing else. The list
 * page's cache holds rows, not records: the server's prefetch is serialised
 * into the HTML, and a full record is three times the bytes of its row.
 */
export type CollectionRow = {
  id: string;
  reference: string;
  contact: { firstName: string; lastName: string; email: string; phone: string };
  amount: { value: number; currency: string };
  status: string;
  payable: { methods: string[] };
  followUp: { enabled: boolean; channels: string[] };
  createdAt: string;
};

export type RowPage = { data: CollectionRow[]; meta: Pick<ListMeta, 'count' | 'next' | 'prev'> };

export function toRow(c: Collection): CollectionRow {
  return {
    id: c.id,
    reference: c.reference,
    contact: {
      firstName: c.contact.firstName,
      lastName: c.contact.lastName,
      email: c.contact.email,
      phone: c.contact.phone,
    },
    amount: { value: c.amount.value, currency: c.amount.currency },
    status: c.status,
    payable: { methods: c.payable.methods },
    followUp: { enabled: c.followUp.enabled, channels: c.followUp.channels },
    createdAt: c.createdAt,
  };
}

export function toRowPage({ data, meta }: CollectionListEnvelope): RowPage {
  return { data: data.map(toRow), meta: { count: meta.count, next: meta.next, prev: meta.prev } };
}
