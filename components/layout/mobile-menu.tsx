'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useRef, type ReactNode } from 'react';
import { focusRing } from '@/components/ui/button';

/**
 * The main navigation below 640 px: one "Menu" disclosure (a <details>, so it works before any script) in
 * the header's first row, instead of links wrapping onto rows of their own. Closed again when a link has
 * taken the reader elsewhere, or on Escape.
 */
export function MobileMenu({ children }: { children: ReactNode }) {
  const details = useRef<HTMLDetailsElement>(null);
  const pathname = usePathname();
  useEffect(() => {
    if (details.current) details.current.open = false;
  }, [pathname]);
  return (
    <details
      ref={details}
      className="relative sm:hidden"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && details.current?.open) {
          details.current.open = false;
          details.current.querySelector('summary')?.focus();
        }
      }}
    >
      <summary
        className={`cursor-pointer list-none rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900 ${focusRing}`}
      >
        Menu
      </summary>
      <div className="absolute left-0 z-30 mt-1 min-w-44 rounded-md border border-zinc-200 bg-white p-2 shadow-lg dark:border-zinc-800 dark:bg-zinc-900">
        {children}
      </div>
    </details>
  );
}
