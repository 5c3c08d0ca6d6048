import Link from '@/components/account/account-scope';
import { collectionsHref, DEFAULT_PAGE, type ListState } from '@/lib/api/list-state';
import { missingStatuses, type HeldStatus } from '@/lib/api/status-words';
import { label } from '@/lib/format/labels';

const box =
  'mb-3 rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100';
const link = 'font-medium underline underline-offset-2';

/**
 * A status filter the account's data does not hold (issue 75: `?status=paid` where the API says `completed`):
 * what it is called here, or the statuses there are, each a link to the list filtered by it.
 */
export function StatusHint({ state, held }: { state: ListState; held: HeldStatus[] | null }) {
  const asked = state.status ?? [];
  if (!held?.length || !asked.length) return null;
  const missing = missingStatuses(asked, held);
  if (!missing.length) return null;
  const kept = asked.filter((a) => !missing.some((m) => m.asked === a));
  const hrefWith = (value: string) =>
    collectionsHref({ ...state, status: [...new Set([...kept, value])], page: DEFAULT_PAGE });
  const offer = (statuses: HeldStatus[]) =>
    statuses.map((s, i) => (
      <span key={s.value}>
        {i ? ', ' : ''}
        <Link href={hrefWith(s.value)} className={link}>
          {label(s.value).text} ({s.count})
        </Link>
      </span>
    ));
  return (
    <div role="status" aria-label="Statuses here" className={box}>
      {missing.map(({ asked: word, instead }) => (
        <p key={word}>
          No collection here has the status “{word}”.{' '}
          {instead.length ? (
            <>
              {label(word).text} is called {instead.map((s) => label(s.value).text).join(' or ')} here: {offer(instead)}
              .
            </>
          ) : (
            <>The statuses here: {offer(held)}.</>
          )}
        </p>
      ))}
    </div>
  );
}
