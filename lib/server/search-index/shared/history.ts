import 'server-only';
import type { Collection } from '@/lib/api/schemas';
import { lineItemTotals } from '@/lib/format/money';
import type { BlindKeys } from './blind';

/**
 * A collection's past, rebuilt from what the sync and live reads saw (contract section 14): the upstream
 * emits no events, so whenever a record is seen differing from the index's copy, what changed is kept.
 * Beside what the index holds anyway (status, amount, times, type, line items, methods), a record's
 * `snapshot` keeps the rest a change is told by: its expiry, payable switch and option count, whole
 * follow-up settings, and a keyed fingerprint of its contact (that it changed, never its values).
 */
export type HistoryField =
  | 'status'
  | 'amount'
  | 'updatedAt'
  | 'completedAt'
  | 'expiresIn'
  | 'followUp'
  | 'payable'
  | 'lineItems'
  | 'type'
  | 'contact';
export type Change = { field: HistoryField; from?: unknown; to?: unknown };

type Snapshot = {
  expiresIn: number;
  payableEnabled: boolean;
  optionsCount: number;
  followUp: { enabled: boolean; startAfter: number; cadence: string; channels: string[]; tone: string };
  contact: string;
  /**
   * The contact id's keyed token (contact pages, section 14). Absent from a snapshot made before them: a
   * record's first write since differs by it alone, so the next scan rewrites every row once and gives each
   * its `contact` token (an index's rows never held the id readable, so nothing else could).
   */
  contactId?: string;
};

/** The snapshot column of a record: canonical JSON (keys in one order), compared as text. */
export function snapshotOf(keys: BlindKeys, c: Collection): string {
  const snapshot: Snapshot = {
    expiresIn: c.expiresIn,
    payableEnabled: c.payable.enabled,
    optionsCount: c.payable.options.length,
    followUp: {
      enabled: c.followUp.enabled,
      startAfter: c.followUp.startAfter,
      cadence: c.followUp.cadence,
      channels: c.followUp.channels,
      tone: c.followUp.tone,
    },
    contact: keys.contactDigest(c.contact),
    contactId: keys.token('contact', c.contact.id),
  };
  return JSON.stringify(snapshot);
}

/** A record as the index held it before this write: its narrow row and details (snapshot null before 0017). */
export type Held = {
  status: string;
  amount_value: number;
  currency: string;
  updated_at: string;
  completed_at: string | null;
  type: string;
  line_item_count: number;
  line_item_totals: string;
  methods: string | null;
  follow_up: string | null;
  snapshot: string | null;
};

const parse = <T>(text: string | null): T | null => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
};
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/**
 * A time already as `toISOString` writes it, and certainly valid (a day up to the 28th, an hour up to 23):
 * what nearly every record holds, kept as it is. Three a record cost 2.5 % of a first sync's request thread
 * as Dates; anything else (another offset, no milliseconds, the 29th to 31st) still goes through one.
 */
const CANONICAL_ISO = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
/** A time as the index stores it (ISO 8601 UTC with milliseconds); null stays null. */
export const iso = (value: string | null) =>
  value === null ? null : CANONICAL_ISO.test(value) ? value : new Date(value).toISOString();

/**
 * What changed from the index's copy to the record as seen now, field by field (the contact only as "it
 * changed"). A copy written before snapshots were kept compares what it has: its follow-up's switch and
 * channels, its methods; its expiry, options and contact are not compared until it has a snapshot.
 */
export function changesOf(before: Held, now: Collection, nowSnapshot: string): Change[] {
  const changes: Change[] = [];
  const add = (field: HistoryField, from: unknown, to: unknown) => {
    if (!same(from, to)) changes.push({ field, from, to });
  };
  const was = parse<Snapshot>(before.snapshot);
  const is = JSON.parse(nowSnapshot) as Snapshot;
  add('status', before.status, now.status);
  add(
    'amount',
    { value: Number(before.amount_value), currency: before.currency },
    { value: now.amount.value, currency: now.amount.currency },
  );
  add('updatedAt', before.updated_at, iso(now.updatedAt));
  add('completedAt', before.completed_at, iso(now.completedAt));
  if (was) add('expiresIn', was.expiresIn, is.expiresIn);
  const oldFollowUp = was?.followUp ?? parse<{ enabled: boolean; channels: string[] }>(before.follow_up);
  if (oldFollowUp)
    add('followUp', oldFollowUp, was ? is.followUp : { enabled: is.followUp.enabled, channels: is.followUp.channels });
  const oldMethods = parse<string[]>(before.methods);
  if (oldMethods)
    add(
      'payable',
      was
        ? { enabled: was.payableEnabled, methods: oldMethods, optionsCount: was.optionsCount }
        : { methods: oldMethods },
      was
        ? { enabled: is.payableEnabled, methods: now.payable.methods, optionsCount: is.optionsCount }
        : { methods: now.payable.methods },
    );
  add(
    'lineItems',
    { count: Number(before.line_item_count), totals: parse(before.line_item_totals) ?? [] },
    { count: now.metadata.length, totals: lineItemTotals(now.metadata) },
  );
  add('type', before.type, now.type);
  // Another person's values, or another contact id (a person recreated upstream); a snapshot from before
  // contact ids were kept compares the values alone.
  if (was && (was.contact !== is.contact || (was.contactId !== undefined && was.contactId !== is.contactId)))
    changes.push({ field: 'contact' });
  return changes;
}
