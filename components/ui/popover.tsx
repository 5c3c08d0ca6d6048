'use client';

import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { focusRing } from './button';

/**
 * A button that shows a panel beside it (a disclosure): `aria-expanded`,
 * closes on Escape (focus back on the button) and on a click elsewhere.
 * Small on purpose: it ships in the shell of every page.
 */
export function Popover({
  label,
  children,
  panelClassName = '',
  buttonClassName = '',
  className = 'relative',
  onOpenChange,
  open: controlled,
  initialOpen = false,
  focusOnMount = false,
}: {
  label: ReactNode;
  children: ReactNode;
  panelClassName?: string;
  buttonClassName?: string;
  /** The root's classes: `relative` (the panel placed by the button) unless the owner places it by a row of its own. */
  className?: string;
  onOpenChange?: (open: boolean) => void;
  /** Given, the owner decides (it hears every change through `onOpenChange`). */
  open?: boolean;
  /** Mounted open (a deferred control clicked before its code arrived: components/ui/deferred.tsx). */
  initialOpen?: boolean;
  /** Mounted with focus on its button (its placeholder had it). */
  focusOnMount?: boolean;
}) {
  const [own, setOpen] = useState(initialOpen);
  const open = controlled ?? own;
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useId();

  function toggle(next: boolean) {
    setOpen(next);
    onOpenChange?.(next);
  }

  // In the commit that takes the placeholder's place, before the browser handles another key: after paint (an
  // effect), an Enter pressed in between reached the page's body, and the control stayed shut (CI, 2026-11-28).
  useLayoutEffect(() => {
    if (focusOnMount) button.current?.focus();
  }, [focusOnMount]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) toggle(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      toggle(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- toggle only closes over stable setters
  }, [open]);

  return (
    <div ref={root} className={className}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => toggle(!open)}
        className={`inline-flex items-center gap-1.5 ${focusRing} ${buttonClassName}`}
      >
        {label}
      </button>
      <div
        id={panel}
        hidden={!open}
        className={`absolute z-20 mt-1 rounded-md border border-zinc-200 bg-white p-3 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 ${panelClassName}`}
      >
        {children}
      </div>
    </div>
  );
}
