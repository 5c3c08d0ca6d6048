'use client';

import { Popover } from '@/components/ui/popover';
import { focusRing } from '@/components/ui/button';
import {
  COLUMN_IDS,
  COLUMN_LABEL,
  DEFAULT_COLUMNS,
  moveColumn,
  toggleColumn,
  type ListColumnId,
} from '@/lib/api/columns';

// At least 24 px to tap (WCAG 2.5.8), 32 px on a phone, where a finger does the pointing.
const small = `inline-flex min-h-6 min-w-6 items-center justify-center rounded px-1.5 text-xs font-medium hover:bg-zinc-100 disabled:opacity-40 max-sm:min-h-8 max-sm:min-w-8 dark:hover:bg-zinc-800 ${focusRing}`;

/**
 * "Columns": every column the one list knows, shown or hidden, in the order shown (contract section 13).
 * Reordered by keyboard with Move up / Move down; "Reset columns" brings the defaults back. The choice is
 * the owner's to keep (a cookie the server reads, so the first paint is right).
 */
export function ColumnsControl({
  shown,
  onChange,
}: {
  shown: readonly ListColumnId[];
  onChange: (next: ListColumnId[]) => void;
}) {
  // Shown first, in their order; then the hidden ones, in the list's own order.
  const rows = [...shown, ...COLUMN_IDS.filter((id) => !shown.includes(id))];
  const isDefault = shown.length === DEFAULT_COLUMNS.length && shown.every((c, i) => c === DEFAULT_COLUMNS[i]);
  return (
    <Popover
      label="Columns"
      buttonClassName={`rounded-md border border-zinc-300 px-2 py-1 text-sm font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900 ${focusRing}`}
      // On a phone the panel spans the row of controls (collections-table.tsx: `relative` there), whichever
      // side of it the button wrapped to: anchored to the button, 18 rem ran off the screen's left edge.
      className="relative max-sm:static"
      panelClassName="right-0 w-72 text-sm max-sm:left-0 max-sm:w-auto"
    >
      <fieldset>
        <legend className="mb-1 font-medium">Columns shown, in order</legend>
        <ul className="space-y-0.5">
          {rows.map((id) => {
            const on = shown.includes(id);
            const at = shown.indexOf(id);
            return (
              <li key={id} className="flex items-center justify-between gap-2">
                <label className="flex min-h-6 grow items-center gap-2 px-1 py-0.5 max-sm:min-h-8">
                  <input
                    type="checkbox"
                    checked={on}
                    // The last column shown stays: a list of no columns shows nothing.
                    disabled={on && shown.length === 1}
                    onChange={() => onChange(toggleColumn(shown, id))}
                  />
                  {COLUMN_LABEL[id]}
                </label>
                {on ? (
                  <span className="flex gap-0.5">
                    <button
                      type="button"
                      className={small}
                      aria-label={`Move ${COLUMN_LABEL[id]} up`}
                      disabled={at === 0}
                      onClick={() => onChange(moveColumn(shown, id, -1))}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      className={small}
                      aria-label={`Move ${COLUMN_LABEL[id]} down`}
                      disabled={at === shown.length - 1}
                      onClick={() => onChange(moveColumn(shown, id, 1))}
                    >
                      ↓
                    </button>
                  </span>
                ) : null}
              </li>
            );
          })}
        </ul>
      </fieldset>
      <button
        type="button"
        className={`mt-2 min-h-8 rounded-md border border-zinc-300 px-2 py-1 text-sm dark:border-zinc-700 ${focusRing}`}
        disabled={isDefault}
        onClick={() => onChange([...DEFAULT_COLUMNS])}
      >
        Reset columns
      </button>
    </Popover>
  );
}
