'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState, type ComponentType } from 'react';

type Dialog = ComponentType<{ onClose: () => void }>;
/** Keys that can start a shortcut here; anything else never loads the handler. */
const KEYS = new Set(['g', 'o', 'c', 'l', '?', 'j', 'k']);

/**
 * The shell's keyboard shortcuts (contract section 9). On every page, so only
 * a listener ships with it: what the keys do (keyboard-actions.ts) and the
 * "Keyboard shortcuts" dialog load on the first key that could be one. The
 * keys have no default action outside a field, so acting a moment later
 * takes nothing from the browser.
 */
export function Shortcuts() {
  const router = useRouter();
  const [Dialog, setDialog] = useState<Dialog | null>(null);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (!KEYS.has(event.key) || event.ctrlKey || event.metaKey || event.altKey) return;
      void import('./keyboard-actions').then(({ handleKey }) =>
        handleKey(event, {
          go: (href) => router.push(href),
          help: () => void import('./shortcuts-dialog').then((m) => setDialog(() => m.default)),
        }),
      );
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [router]);

  return Dialog ? <Dialog onClose={() => setDialog(null)} /> : null;
}
