import Link from '@/components/account/account-scope';
import { StatusBadge } from '@/components/ui/badge';
import { focusRing } from '@/components/ui/button';
import { collectionsHref, defaults, listStateSchema } from '@/lib/api/list-state';
import type { Overview } from '@/lib/api/overview';
import { label } from '@/lib/format/labels';

const nf = new Intl.NumberFormat('en');

/**
 * The Overview's "Changes" (contract section 14): the last 24 hours' status changes the index saw, by kind
 * (Pending → Completed: 41), each a link to the list of those collections (`change` and `changedSince`).
 * The upstream emits no events: these are what the dashboard's own sync saw change. An overview narrowed to
 * some tags counts (and links to) the tagged collections' changes.
 */
export function ChangesPanel({ changes, tag }: { changes: Overview['changes']; tag?: string[] }) {
  const base = { ...defaults(listStateSchema), ...(tag?.length ? { tag } : {}) };
  return (
    <section aria-labelledby="changes" className="mt-4 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 id="changes" className="font-semibold">
        Changes
      </h2>
      <p className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">
        Status changes the index saw in the last 24 hours (the upstream sends no events: each is what the sync found
        changed).
      </p>
      {changes.kinds.length ? (
        <ul className="flex flex-wrap gap-2 text-sm">
          {changes.kinds.map((k) => (
            <li key={`${k.from}>${k.to}`}>
              <Link
                href={collectionsHref({ ...base, change: { from: k.from, to: k.to }, changedSince: changes.since })}
                aria-label={`${label(k.from).text} to ${label(k.to).text}: ${nf.format(k.count)}`}
                className={`inline-flex items-center gap-1.5 rounded-md border border-zinc-200 px-2 py-1 hover:bg-zinc-50 dark:border-zinc-800 dark:hover:bg-zinc-900 ${focusRing}`}
              >
                <StatusBadge status={k.from} />
                <span aria-hidden="true">→</span>
                <StatusBadge status={k.to} />
                <span className="font-semibold tabular-nums">{nf.format(k.count)}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm">No collection changed status in the last 24 hours.</p>
      )}
    </section>
  );
}
