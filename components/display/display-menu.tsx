'use client';

import { useState } from 'react';
import { Popover } from '@/components/ui/popover';
import type { Density, TimesIn } from '@/lib/display/preferences';
import { useDisplay } from './display-provider';

const radio = 'flex items-center gap-2 rounded px-1 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800';

/** "Display": row density and the time zone times are shown in, remembered by this browser. */
export function DisplayMenu() {
  const { display, setDisplay } = useDisplay();
  // The panel is drawn when first opened: every page's HTML carries the button only.
  const [opened, setOpened] = useState(false);
  const local = display.zone ?? 'this browser’s time zone';
  return (
    <Popover
      label={
        <>
          <svg
            aria-hidden="true"
            viewBox="0 0 16 16"
            className="size-4"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
          >
            <path d="M2 4h7m3 0h2M2 8h2m3 0h7M2 12h9m3 0h0" />
            <circle cx="10.5" cy="4" r="1.5" />
            <circle cx="5.5" cy="8" r="1.5" />
            <circle cx="12.5" cy="12" r="1.5" />
          </svg>
          <span>Display</span>
        </>
      }
      buttonClassName="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      panelClassName="right-0 w-64 space-y-3 text-sm"
      onOpenChange={(open) => open && setOpened(true)}
    >
      {opened ? (
        <>
          <fieldset>
            <legend className="mb-1 font-medium">Rows</legend>
            {(['comfortable', 'compact'] as Density[]).map((density) => (
              <label key={density} className={radio}>
                <input
                  type="radio"
                  name="density"
                  checked={display.density === density}
                  onChange={() => setDisplay({ ...display, density })}
                />
                {density === 'compact' ? 'Compact' : 'Comfortable'}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend className="mb-1 font-medium">Times</legend>
            {(['local', 'utc'] as TimesIn[]).map((times) => (
              <label key={times} className={radio}>
                <input
                  type="radio"
                  name="times"
                  checked={display.times === times}
                  onChange={() => setDisplay({ ...display, times })}
                />
                {times === 'utc' ? 'UTC' : <span className="min-w-0 break-words">Local ({local})</span>}
              </label>
            ))}
            <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
              The exact UTC time shows on hover either way.
            </p>
          </fieldset>
        </>
      ) : null}
    </Popover>
  );
}
