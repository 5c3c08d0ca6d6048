import type { ReactNode } from 'react';

type Header = string | { label: string; right?: boolean };

const HEAD = {
  boxed: 'bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400',
  quiet: 'text-xs uppercase tracking-wide text-zinc-600 dark:text-zinc-400',
};
const BOX = 'rounded-lg border border-zinc-200 dark:border-zinc-800';

/**
 * The dashboard's one table for reading (the audit log, the drift report, line items, lookup results, the
 * overview's statuses, the keyboard shortcuts): a caption (for screen readers unless `captionVisible`), a
 * header row, and the caller's rows. Given a `label`, it is a focusable region that scrolls sideways.
 * `boxed` draws a border and a shaded header row; `quiet` neither. The collections list is its own table
 * (components/collections/collections-table.tsx: TanStack Table's model, cards on a phone).
 */
export function PlainTable({
  label,
  caption,
  captionVisible = false,
  headers,
  variant = 'boxed',
  className = '',
  tableClassName = '',
  cellClassName = 'px-2 py-2',
  bodyClassName = 'cells divide-y divide-zinc-200 dark:divide-zinc-800',
  children,
}: {
  label?: string;
  caption: ReactNode;
  captionVisible?: boolean;
  headers: Header[];
  variant?: keyof typeof HEAD;
  /** The container's classes beside its own (a margin). */
  className?: string;
  tableClassName?: string;
  /** Padding of the header cells, to line up with the rows'. */
  cellClassName?: string;
  bodyClassName?: string;
  children: ReactNode;
}) {
  const region = label ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {};
  return (
    <div
      {...region}
      className={`overflow-x-auto focus-visible:outline-2 focus-visible:outline-sky-600 ${variant === 'boxed' ? BOX : ''} ${className}`}
    >
      <table className={`w-full text-left text-sm ${tableClassName}`}>
        <caption
          className={
            captionVisible ? 'px-3 pt-2 text-left text-xs font-medium text-zinc-600 dark:text-zinc-400' : 'sr-only'
          }
        >
          {caption}
        </caption>
        <thead className={HEAD[variant]}>
          <tr>
            {headers.map((h) => {
              const { label: text, right } = typeof h === 'string' ? { label: h, right: false } : h;
              return (
                <th
                  key={text}
                  scope="col"
                  className={`whitespace-nowrap font-medium ${cellClassName} ${right ? 'text-right' : ''}`}
                >
                  {text}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className={bodyClassName}>{children}</tbody>
      </table>
    </div>
  );
}
