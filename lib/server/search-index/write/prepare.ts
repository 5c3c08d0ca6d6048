import 'server-only';
import type { Collection } from '@/lib/api/schemas';
import { lineItemTotals } from '@/lib/format/money';
import type { AppDatabase } from '../../database/schema';
import { withoutNul } from '../../database/text';
import { contactTokens, referenceKey, sealAad, type BlindKeys } from '../shared/blind';
import { iso, snapshotOf } from '../shared/history';
import { storedPhone } from '../shared/phones';

/**
 * What writing a record needs of the record alone, made the same on any thread: the request thread's
 * (store-records.ts, a rescan's few changed records) or the preparing thread's (prepare-thread.ts, a first
 * scan's every record). It reads no database and holds no state but the blind keys' memos.
 */

/** The list's Methods and Follow-up columns as the details hold them (JSON text, compared as text). */
export const listColumns = (c: Collection) => ({
  methods: JSON.stringify(c.payable.methods),
  follow_up: JSON.stringify({ enabled: c.followUp.enabled, channels: c.followUp.channels }),
});

/**
 * A record as the index can write it: U+FFFD where a text it stores (id, reference, type, status, currency)
 * holds U+0000 (`withoutNul`). One such record failed its page's write on PostgreSQL (the page retried,
 * the scan never completed; a live read's write-through faulted the index), and SQLite's trigram index
 * found a reference 'ab\0c' by 'abc'. What the index writes as JSON (line items, methods, the snapshot)
 * escapes it already, and the contact is sealed and hashed. The record itself when it holds none, nearly
 * always: what `prepare` made of it is then found again by `upsert`.
 */
export function storable(c: Collection): Collection {
  const { id, reference, type, status } = c;
  const { currency } = c.amount;
  if (![id, reference, type, status, currency].some((text) => text.includes('\u0000'))) return c;
  return {
    ...c,
    id: withoutNul(id),
    reference: withoutNul(reference),
    type: withoutNul(type),
    status: withoutNul(status),
    amount: { ...c.amount, currency: withoutNul(currency) },
  };
}

/**
 * What a record's write needs that depends on the record alone: its narrow row (but the time it was seen),
 * its details with the sealed contact, its blind tokens with its name words, its phone as stored, its
 * history snapshot. Made once a record (`prepared`): during a first scan, while the page before is written
 * (`prepare`).
 */
export type Prepared = {
  row: Omit<AppDatabase['collections'], 'seen_at'>;
  details: AppDatabase['collection_details'];
  snapshot: string;
  tokens: { kind: string; token: string }[];
  words: Map<string, string>;
  phone: ReturnType<typeof storedPhone>;
};

export function prepareRecord(keys: BlindKeys, account: number, accountKey: string, c: Collection): Prepared {
  const { firstName, lastName, email, phone, id: contactId } = c.contact;
  const snapshot = snapshotOf(keys, c);
  const words = new Map<string, string>();
  return {
    row: {
      account,
      id: c.id,
      reference_key: referenceKey(c.reference),
      status: c.status,
      amount_value: c.amount.value,
      currency: c.amount.currency,
      created_at: iso(c.createdAt)!,
      updated_at: iso(c.updatedAt)!,
      completed_at: iso(c.completedAt),
    },
    details: {
      account,
      id: c.id,
      reference: c.reference,
      type: c.type,
      completed_at: iso(c.completedAt),
      line_item_count: c.metadata.length,
      line_item_totals: JSON.stringify(lineItemTotals(c.metadata)),
      contact_sealed: keys.seal({ firstName, lastName, email, phone, id: contactId }, sealAad(accountKey, c.id)),
      ...listColumns(c),
      snapshot,
    },
    snapshot,
    tokens: contactTokens(keys, c.contact, words),
    words,
    phone: storedPhone(phone),
  };
}
