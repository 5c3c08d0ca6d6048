import { kindOfId } from '@/lib/api/ids';
import { hrefForId } from '@/lib/api/open-target';

/**
 * Recently viewed and pinned records (contract section 9), kept in this
 * browser only (localStorage): the last 20 collections and providers opened,
 * and any the agent pinned. Versioned, and tolerant of anything else under the
 * key (an older shape, another app's data, a hand edit): what cannot be read
 * is dropped, never thrown. Holds no contact data: a reference, a status and
 * an amount for a collection, a name for a provider.
 */
export type RecordKind = 'collection' | 'provider';
export type RecordEntry = {
  kind: RecordKind;
  id: string;
  /** What the list shows: a collection's reference, a provider's name. */
  label: string;
  /** A short second line: "pending · NGN 12,500", "enabled". */
  detail: string;
  /** When it was last opened (recent) or pinned (pinned), ISO 8601. */
  at: string;
};
export type Records = { recent: RecordEntry[]; pinned: RecordEntry[] };

export const STORAGE_KEY = 'collections-console:records';

/**
 * Where this page's lists are kept: one account's records are its own (several accounts: the page's address
 * names the account, and each has its key); with one account, the key as it always was.
 */
export function recordsKey(search = window.location.search): string {
  const account = new URLSearchParams(search).get('account');
  return account && account !== 'all' ? `${STORAGE_KEY}:${account}` : STORAGE_KEY;
}
export const VERSION = 1;
export const MAX_RECENT = 20;
/** Pins are the agent's own choice, but a list is only useful while it fits on a screen or two. */
export const MAX_PINNED = 50;
const MAX_TEXT = 200;

export const EMPTY: Records = { recent: [], pinned: [] };

function entry(value: unknown): RecordEntry | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (v.kind !== 'collection' && v.kind !== 'provider') return null;
  if (typeof v.id !== 'string' || kindOfId(v.id) !== v.kind) return null;
  if (typeof v.at !== 'string' || Number.isNaN(Date.parse(v.at))) return null;
  const text = (x: unknown) => (typeof x === 'string' ? x.slice(0, MAX_TEXT) : '');
  return { kind: v.kind, id: v.id, label: text(v.label) || v.id, detail: text(v.detail), at: v.at };
}

function list(value: unknown, max: number): RecordEntry[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const out: RecordEntry[] = [];
  for (const item of value) {
    const e = entry(item);
    if (!e || seen.has(e.id)) continue;
    seen.add(e.id);
    out.push(e);
    if (out.length === max) break;
  }
  return out;
}

/** What is stored under the key, read as well as it can be: any other shape or version is empty. */
export function parseRecords(raw: string | null): Records {
  if (!raw) return EMPTY;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return EMPTY;
  }
  if (!data || typeof data !== 'object' || (data as { version?: unknown }).version !== VERSION) return EMPTY;
  const d = data as { recent?: unknown; pinned?: unknown };
  return { recent: list(d.recent, MAX_RECENT), pinned: list(d.pinned, MAX_PINNED) };
}

export const serialiseRecords = (records: Records) => JSON.stringify({ version: VERSION, ...records });

/** A record opened now: first in the recent list, once, the oldest past 20 dropped; a pin's label kept fresh. */
export function visited(records: Records, e: RecordEntry): Records {
  return {
    recent: [e, ...records.recent.filter((r) => r.id !== e.id)].slice(0, MAX_RECENT),
    pinned: records.pinned.map((p) => (p.id === e.id ? { ...e, at: p.at } : p)),
  };
}

export const isPinned = (records: Records, id: string) => records.pinned.some((p) => p.id === id);

/** Pins a record (newest first) or unpins it. */
export function togglePin(records: Records, e: RecordEntry): Records {
  if (isPinned(records, e.id)) return { ...records, pinned: records.pinned.filter((p) => p.id !== e.id) };
  return { ...records, pinned: [e, ...records.pinned].slice(0, MAX_PINNED) };
}

/** A stored entry's page (its id was checked against its kind when read). */
export const hrefOf = (e: Pick<RecordEntry, 'id'>) => hrefForId(e.id)!;

/** The lists in this browser's storage; empty where storage is off or holds something else. */
export function readStoredRecords(): Records {
  try {
    return parseRecords(window.localStorage.getItem(recordsKey()));
  } catch {
    return EMPTY;
  }
}

/** The Search box's list when empty: pinned records first, then the recent ones not pinned. */
export function rememberedOptions(): Array<{ key: string; href: string; label: string; detail: string }> {
  const records = readStoredRecords();
  const pinned = new Set(records.pinned.map((p) => p.id));
  return [
    ...records.pinned.map((r) => ({ key: r.id, href: hrefOf(r), label: r.label, detail: `Pinned · ${r.detail}` })),
    ...records.recent
      .filter((r) => !pinned.has(r.id))
      .map((r) => ({ key: r.id, href: hrefOf(r), label: r.label, detail: `Recent · ${r.detail}` })),
  ];
}
