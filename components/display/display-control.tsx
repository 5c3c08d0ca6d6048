'use client';

import { useState } from 'react';
import { Popover } from '@/components/ui/popover';
import type { Density, TimesIn } from '@/lib/display/preferences';
import type { DeferredProps } from '@/components/ui/deferred';
import { DISPLAY_BUTTON, DISPLAY_LABEL } from './display-label';
import { useDisplay } from './display-provider';

const radio = 'flex items-center gap-2 rounded px-1 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800';

/** "Display": row density and the time zone times are shown in, remembered by this browser. Loaded at first use. */
export default function DisplayControl({ initialOpen = false, focusOnMount = false }: DeferredProps) {
  const { display, setDisplay } = useDisplay();
  const [opened, setOpened] = useState(initialOpen);
  const local = display.zone ?? 'this browser’s time zone';
  return (
    <Popover
      label={DISPLAY_LABEL}
      buttonClassName={DISPLAY_BUTTON}
      panelClassName="right-0 w-64 space-y-3 text-sm"
      onOpenChange={(open) => open && setOpened(true)}
      initialOpen={initialOpen}
      focusOnMount={focusOnMount}
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
