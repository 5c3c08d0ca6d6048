'use client';

import { useEffect, useRef, useState } from 'react';
import { usePageAccount } from '@/components/account/account-scope';
import { withAccount } from '@/lib/accounts/href';
import { Button } from '@/components/ui/button';
import { isPinned, togglePin, visited, type RecordEntry } from '@/lib/recent/records';
import type { NoteInput } from '@/lib/support/note';
import { isShortcut } from '@/lib/keyboard/keys';
import type { ReactNode } from 'react';
import { updateRecords, useRecords } from './use-records';

/**
 * A detail page's own actions: the visit remembered in this browser's recent
 * list, "Pin" / "Unpin", and for a collection "Copy as support note".
 */
export function RecordActions({
  record,
  note,
  minorUnits,
  children,
}: {
  record: Omit<RecordEntry, 'at'>;
  /** More of the page's own actions (Watch). */
  children?: ReactNode;
  note?: NoteInput;
  minorUnits: boolean;
}) {
  const records = useRecords();
  const pinRef = useRef(() => {});
  const pinned = isPinned(records, record.id);
  const [said, setSaid] = useState('');
  const account = usePageAccount();
  const { kind, id, label, detail } = record;

  useEffect(() => {
    updateRecords((r) => visited(r, { kind, id, label, detail, at: new Date().toISOString() }));
  }, [kind, id, label, detail]);

  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(''), 4000);
    return () => clearTimeout(timer);
  }, [said]);

  // `c` copies the id, `p` pins or unpins (never while typing or with a modifier held).
  useEffect(() => {
    async function onKey(event: KeyboardEvent) {
      if (!isShortcut(event) || (event.key !== 'c' && event.key !== 'p')) return;
      event.preventDefault();
      if (event.key === 'p') return pinRef.current();
      try {
        await navigator.clipboard.writeText(id);
        setSaid(`Copied ${id}`);
      } catch {
        setSaid('The browser did not allow copying');
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [id]);

  function pin() {
    updateRecords((r) => togglePin(r, { kind, id, label, detail, at: new Date().toISOString() }));
    setSaid(pinned ? 'Unpinned' : 'Pinned: find it in the Search box’s list and on Lookup');
  }

  useEffect(() => {
    pinRef.current = pin;
  });

  async function copyNote() {
    if (!note) return;
    const link = new URL(withAccount(`/collections/${note.id}`, account), window.location.origin).toString();
    try {
      // Formatting code loaded on the click: most visits never copy a note.
      const { supportNote } = await import('@/lib/support/note');
      await navigator.clipboard.writeText(supportNote(note, { minorUnits, link }));
      setSaid('Support note copied');
    } catch {
      setSaid('The browser did not allow copying');
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button onClick={pin} aria-keyshortcuts="p">
        {pinned ? 'Unpin' : 'Pin'}
      </Button>
      {note ? <Button onClick={copyNote}>Copy as support note</Button> : null}
      {children}
      <span role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
        {said}
      </span>
    </div>
  );
}
