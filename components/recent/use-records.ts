'use client';

import { useCallback, useSyncExternalStore } from 'react';
import { EMPTY, parseRecords, recordsKey, serialiseRecords, type Records } from '@/lib/recent/records';

/**
 * The recent and pinned records of this browser (lib/recent/records.ts), shared
 * by every component that shows or changes them and kept in step across tabs
 * (the `storage` event). On the server, and before hydration, the lists are
 * empty: nothing of them is ever sent to the server.
 */
const CHANGED = 'collections-console:records-changed';
let cache: { raw: string | null; records: Records } = { raw: null, records: EMPTY };

function read(): Records {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(recordsKey());
  } catch {
    return EMPTY; // storage switched off: the lists stay empty
  }
  if (raw !== cache.raw) cache = { raw, records: parseRecords(raw) };
  return cache.records;
}

function subscribe(onChange: () => void) {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === recordsKey()) onChange();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(CHANGED, onChange);
  };
}

/** Changes the stored lists (a visit, a pin, a clear) and tells every reader in this tab. */
export function updateRecords(change: (records: Records) => Records) {
  try {
    const next = change(read());
    const key = recordsKey();
    if (next.recent.length || next.pinned.length) window.localStorage.setItem(key, serialiseRecords(next));
    else window.localStorage.removeItem(key);
  } catch {
    return; // storage full or switched off: nothing remembered, nothing broken
  }
  window.dispatchEvent(new Event(CHANGED));
}

export function useRecords(): Records {
  return useSyncExternalStore(subscribe, read, () => EMPTY);
}

export function useClearRecords() {
  return useCallback(() => updateRecords(() => EMPTY), []);
}
