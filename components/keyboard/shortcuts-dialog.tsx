'use client';

import { useEffect, useRef } from 'react';
import { PlainTable } from '@/components/ui/plain-table';
import { Button } from '@/components/ui/button';
import { SHORTCUTS } from '@/lib/keyboard/shortcuts';

/**
 * "Keyboard shortcuts": a modal dialog (the page behind it inert), focus kept
 * inside while it is open, closed by Escape or Close, focus given back to
 * where it was.
 */
export default function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const d = dialog.current!;
    const before = document.activeElement as HTMLElement | null;
    d.showModal();
    const onCloseEvent = () => {
      onClose();
      before?.focus?.();
    };
    d.addEventListener('close', onCloseEvent);
    return () => d.removeEventListener('close', onCloseEvent);
  }, [onClose]);

  function trap(event: React.KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab') return;
    const focusable = [
      ...dialog.current!.querySelectorAll<HTMLElement>('button, [href], [tabindex]:not([tabindex="-1"])'),
    ];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby="shortcuts-title"
      onKeyDown={trap}
      className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <div className="flex items-center justify-between border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <h2 id="shortcuts-title" className="text-base font-semibold">
          Keyboard shortcuts
        </h2>
        <Button onClick={() => dialog.current?.close()} autoFocus>
          Close
        </Button>
      </div>
      <PlainTable
        caption="Keys and what they do"
        variant="quiet"
        cellClassName="px-4 py-2"
        bodyClassName=""
        headers={['Keys', 'Does', 'Where']}
      >
        {SHORTCUTS.map((s) => (
          <tr key={s.keys.join(' ')} className="border-t border-zinc-100 dark:border-zinc-800">
            <td className="px-4 py-1.5 whitespace-nowrap">
              {s.keys.map((k, i) => (
                <span key={k}>
                  {i ? <span className="px-1 text-xs text-zinc-600 dark:text-zinc-400">then</span> : null}
                  <kbd className="rounded border border-zinc-300 px-1.5 font-mono text-xs dark:border-zinc-600">
                    {k}
                  </kbd>
                </span>
              ))}
            </td>
            <td className="px-4 py-1.5">{s.what}</td>
            <td className="px-4 py-1.5 text-zinc-700 dark:text-zinc-300">{s.where}</td>
          </tr>
        ))}
      </PlainTable>
      <p className="px-4 py-3 text-xs text-zinc-600 dark:text-zinc-400">
        Shortcuts never act while you type in a field, and never with Ctrl, Cmd or Alt held.
      </p>
    </dialog>
  );
}
