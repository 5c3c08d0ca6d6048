import Link from '@/components/account/account-scope';
import { collectionsHref, defaults, listStateSchema } from '@/lib/api/list-state';
import { statusesMeaning, type HeldStatus } from '@/lib/api/status-words';
import { label } from '@/lib/format/labels';

/**
 * A search for a status word ("paid", "pending", "expired", "failed"): collections are not found by their
 * status's name, so the status filter is offered, by what the word means in the account's statuses.
 */
export function StatusOffer({ q, held }: { q: string; held: HeldStatus[] | null }) {
  const statuses = held ? statusesMeaning(q, held) : [];
  if (!statuses.length) return null;
  return (
    <p
      role="status"
      aria-label="Filter by status"
      className="mb-3 rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100"
    >
      Looking for collections by status?{' '}
      {statuses.map((s, i) => (
        <span key={s.value}>
          {i ? ', ' : ''}
          <Link
            href={collectionsHref({ ...defaults(listStateSchema), status: [s.value] })}
            className="font-medium underline underline-offset-2"
          >
            {label(s.value).text} collections ({s.count})
          </Link>
        </span>
      ))}
    </p>
  );
}
