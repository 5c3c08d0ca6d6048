import type { ReactNode } from 'react';

/**
 * A server-rendered table of records for reading (the audit log, the drift
 * report): a focusable region that scrolls sideways, a caption for screen
 * readers, a header row, and the caller's rows (cells padded by `cells`).
 */
export function PlainTable({
  label,
  caption,
  headers,
  children,
}: {
  label: string;
  caption: string;
  headers: string[];
  children: ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800"
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
          <tr>
            {headers.map((h) => (
              <th key={h} scope="col" className="whitespace-nowrap px-2 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="cells divide-y divide-zinc-200 dark:divide-zinc-800">{children}</tbody>
      </table>
    </div>
  );
}
