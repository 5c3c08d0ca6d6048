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

const small = `rounded px-1.5 py-0.5 text-xs font-medium hover:bg-zinc-100 disabled:opacity-40 dark:hover:bg-zinc-800 ${focusRing}`;

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
      panelClassName="right-0 w-72 text-sm"
    >
      <fieldset>
        <legend className="mb-1 font-medium">Columns shown, in order</legend>
        <ul className="space-y-0.5">
          {rows.map((id) => {
            const on = shown.includes(id);
            const at = shown.indexOf(id);
            return (
              <li key={id} className="flex items-center justify-between gap-2">
                <label className="flex items-center gap-2 px-1 py-0.5">
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
        className={`mt-2 rounded-md border border-zinc-300 px-2 py-1 text-sm dark:border-zinc-700 ${focusRing}`}
        disabled={isDefault}
        onClick={() => onChange([...DEFAULT_COLUMNS])}
      >
        Reset columns
      </button>
    </Popover>
  );
}
