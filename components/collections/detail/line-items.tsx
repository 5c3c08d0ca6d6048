import { PlainTable } from '@/components/ui/plain-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Section } from '@/components/ui/section';
import type { Amount, LineItem } from '@/lib/api/schemas';
import { formatAmount, lineItemTotals } from '@/lib/format/money';

/**
 * Line items with quantity × amount per line and per currency, set beside the
 * collection's own amount. When they differ we say so, without claiming which
 * one is right: the API defines no relation between them.
 */
export function LineItems({ items, amount, minorUnits }: { items: LineItem[]; amount: Amount; minorUnits: boolean }) {
  const fmt = (a: Amount) => formatAmount(a, { minorUnits });
  const totals = lineItemTotals(items);
  const matches = totals.length === 1 && totals[0]!.currency === amount.currency && totals[0]!.value === amount.value;

  return (
    <Section
      title="Line items"
      id="line-items"
      aside={
        <span className="text-sm text-zinc-600 dark:text-zinc-400">
          {items.length} {items.length === 1 ? 'item' : 'items'}
        </span>
      }
    >
      {items.length === 0 ? (
        <EmptyState title="No line items">
          This collection carries no line items; its amount stands on its own.
        </EmptyState>
      ) : (
        <>
          <PlainTable
            label="Line items table"
            caption="Line items"
            variant="quiet"
            tableClassName="items-as-cards"
            cellClassName="py-1 pr-3"
            bodyClassName="divide-y divide-zinc-200 dark:divide-zinc-800"
            headers={[
              'Name',
              'Description',
              { label: 'Quantity', right: true },
              { label: 'Amount', right: true },
              { label: 'Line total', right: true },
            ]}
          >
            {items.map((item, i) => (
              <tr key={i}>
                <td data-col="name" className="py-1.5 pr-3 font-medium">
                  {item.name}
                </td>
                <td data-col="description" className="py-1.5 pr-3 text-zinc-700 dark:text-zinc-300">
                  {item.description}
                </td>
                <td data-col="quantity" className="py-1.5 pr-3 text-right tabular-nums">
                  {item.quantity}
                </td>
                <td data-col="amount" className="whitespace-nowrap py-1.5 pr-3 text-right tabular-nums">
                  {fmt(item.amount)}
                </td>
                <td data-col="total" className="whitespace-nowrap py-1.5 text-right tabular-nums">
                  {fmt({ value: item.amount.value * item.quantity, currency: item.amount.currency })}
                </td>
              </tr>
            ))}
          </PlainTable>
          <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 border-t border-zinc-200 pt-3 text-sm dark:border-zinc-800">
            <dt className="text-zinc-600 dark:text-zinc-400">Line items total</dt>
            <dd className="tabular-nums font-medium">{totals.map(fmt).join(' + ')}</dd>
            <dt className="text-zinc-600 dark:text-zinc-400">Collection amount</dt>
            <dd className="tabular-nums font-medium">{fmt(amount)}</dd>
          </dl>
          {!matches ? (
            <p className="mt-2 text-sm text-amber-800 dark:text-amber-300">
              The line items add up to a different figure than the collection amount.
            </p>
          ) : null}
        </>
      )}
    </Section>
  );
}
