'use client';

import dynamic from 'next/dynamic';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { isShortcut } from '@/lib/keyboard/keys';
import { GO_TO, GO_WINDOW_MS } from '@/lib/keyboard/shortcuts';

// The dialog's code loads the first time `?` is pressed.
const ShortcutsDialog = dynamic(() => import('./shortcuts-dialog'), { ssr: false });

const ROWS = '[data-trail] tbody tr';

/** Moves the focus to the next or previous row of the page's table (its first link), from the focused one. */
function moveRow(step: 1 | -1): boolean {
  const rows = [...document.querySelectorAll<HTMLTableRowElement>(ROWS)].filter((r) => r.querySelector('a[href]'));
  if (!rows.length) return false;
  const current = rows.findIndex((r) => r.contains(document.activeElement));
  const next =
    current < 0 ? (step === 1 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, current + step));
  const link = rows[next]!.querySelector<HTMLAnchorElement>('a[href]')!;
  link.focus();
  link.scrollIntoView({ block: 'nearest' });
  return true;
}

/**
 * The shell's keyboard shortcuts: `?` for the list of them, `g` then `o` / `c`
 * / `l` to go places, `j` / `k` between a table's rows. Never while typing,
 * never with a modifier held (lib/keyboard/keys.ts).
 */
export function Shortcuts() {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const goAt = useRef(0);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (!isShortcut(event)) return;
      const go = Date.now() - goAt.current < GO_WINDOW_MS;
      goAt.current = 0;
      if (go && GO_TO[event.key]) {
        event.preventDefault();
        router.push(GO_TO[event.key]!);
      } else if (event.key === 'g') {
        goAt.current = Date.now();
      } else if (event.key === '?') {
        event.preventDefault();
        setOpen(true);
      } else if ((event.key === 'j' || event.key === 'k') && moveRow(event.key === 'j' ? 1 : -1)) {
        event.preventDefault();
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [router]);

  return open ? <ShortcutsDialog onClose={() => setOpen(false)} /> : null;
}
