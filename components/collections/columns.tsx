'use client';

import { createColumnHelper, rowPaginationFeature, tableFeatures } from '@tanstack/react-table';
import { Badge, EnumBadge, StatusBadge } from '@/components/ui/badge';
import { CopyButton } from '@/components/ui/copy-button';
import { TimeAgo } from '@/components/ui/time-ago';
import type { CollectionRow } from '@/lib/query/rows';
import { formatAmount } from '@/lib/format/money';

export const features = tableFeatures({ rowPaginationFeature });
const column = createColumnHelper<typeof features, CollectionRow>();

/**
 * Classes for a column's cells, so a cell's content needs no wrapper element of
 * its own: a 100-row page is 2,700 elements, and each one costs server render,
 * style, layout and hydration time.
 */
export const CELL_CLASS: Partial<Record<keyof CollectionRow, string>> = {
  amount: 'whitespace-nowrap text-right tabular-nums',
  payable: 'badges',
  followUp: 'badges',
  id: 'whitespace-nowrap',
};

/** The table's columns; `minorUnits` follows AMOUNT_MINOR_UNITS from the server. */
export function collectionColumns(minorUnits: boolean) {
  return column.columns([
    column.accessor('reference', {
      header: 'Reference',
      cell: ({ row }) => (
        // A plain anchor: the table's click handler turns a plain click into a client-side
        // navigation, so 100 rows do not each mount a <Link> (its hooks cost render and hydration time).
        <a href={`/collections/${row.original.id}`} className="link-strong whitespace-nowrap">
          {row.original.reference || <span className="italic">(no reference)</span>}
        </a>
      ),
    }),
    column.accessor('contact', {
      header: 'Contact',
      cell: ({ row }) => {
        const c = row.original.contact;
        return (
          <div className="min-w-36">
            <div>{`${c.firstName} ${c.lastName}`.trim() || '—'}</div>
            <div className="text-xs text-zinc-600 dark:text-zinc-400">{c.email || c.phone}</div>
          </div>
        );
      },
    }),
    column.accessor('amount', {
      header: () => <span className="block text-right">Amount</span>,
      cell: ({ row }) => formatAmount(row.original.amount, { minorUnits }),
    }),
    column.accessor('status', { header: 'Status', cell: ({ row }) => <StatusBadge status={row.original.status} /> }),
    column.accessor('payable', {
      header: 'Methods',
      cell: ({ row }) =>
        row.original.payable.methods.length ? (
          row.original.payable.methods.map((m) => <EnumBadge key={m} value={m} />)
        ) : (
          <span className="text-zinc-600 dark:text-zinc-400">—</span>
        ),
    }),
    column.accessor('followUp', {
      header: 'Follow-up',
      cell: ({ row }) => {
        const f = row.original.followUp;
        if (!f.enabled) return <Badge>Off</Badge>;
        return [
          <Badge key="" tone="green">
            On
          </Badge>,
          ...f.channels.map((ch) => <EnumBadge key={ch} value={ch} tone="neutral" />),
        ];
      },
    }),
    column.accessor('createdAt', { header: 'Created', cell: ({ row }) => <TimeAgo iso={row.original.createdAt} /> }),
    column.accessor('id', {
      header: 'ID',
      cell: ({ row }) => (
        <>
          <span className="inline-block max-w-40 truncate align-middle font-mono text-xs" title={row.original.id}>
            {row.original.id}
          </span>
          <CopyButton value={row.original.id} label={`id ${row.original.id}`} />
        </>
      ),
    }),
  ]);
}
