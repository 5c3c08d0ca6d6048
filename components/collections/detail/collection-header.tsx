import { EnumBadge, StatusBadge } from '@/components/ui/badge';
import { Copyable } from '@/components/ui/copyable';
import { Field, Fields } from '@/components/ui/section';
import { DateTime } from '@/components/ui/date-time';
import { TimeAgo } from '@/components/ui/time-ago';
import type { Collection } from '@/lib/api/schemas';
import { formatAmount } from '@/lib/format/money';

export function CollectionHeader({ collection: c, minorUnits }: { collection: Collection; minorUnits: boolean }) {
  const amount = formatAmount(c.amount, { minorUnits });
  return (
    <div className="flex flex-col gap-4 rounded-lg border border-zinc-200 p-4 lg:flex-row lg:justify-between dark:border-zinc-800">
      <div className="space-y-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Collection</p>
        <h1 className="flex flex-wrap items-center gap-3">
          <span className="text-3xl font-semibold tabular-nums tracking-tight">{amount}</span>
          <StatusBadge status={c.status} />
        </h1>
        <Fields>
          <Field term="Reference">
            <Copyable value={c.reference} label="reference" mono={false} />
          </Field>
          <Field term="Type">
            <EnumBadge value={c.type} tone="neutral" />
          </Field>
          <Field term="ID">
            <Copyable value={c.id} label="id" />
          </Field>
          <Field term="Amount">
            <Copyable value={amount} label="amount" mono={false} />
          </Field>
        </Fields>
      </div>
      <Fields>
        <Field term="Created">
          <DateTime iso={c.createdAt} seconds zone />
        </Field>
        <Field term="Updated">
          <DateTime iso={c.updatedAt} seconds zone />
          <span className="ml-2 text-xs text-zinc-600 dark:text-zinc-400">
            <TimeAgo iso={c.updatedAt} bare />
          </span>
        </Field>
        <Field term="Completed">
          {c.completedAt ? (
            <DateTime iso={c.completedAt} seconds zone />
          ) : (
            <span className="text-zinc-600 dark:text-zinc-400">Not completed</span>
          )}
        </Field>
        <Field term="Expires in">
          <span className="tabular-nums">{c.expiresIn}</span>
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">Unit not specified by the API</span>
        </Field>
      </Fields>
    </div>
  );
}
