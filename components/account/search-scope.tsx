import { focusRing } from '@/components/ui/button';

const tab = `rounded-md border px-2 py-1 aria-[current]:border-zinc-900 aria-[current]:font-medium dark:aria-[current]:border-zinc-100 border-zinc-300 dark:border-zinc-700 ${focusRing}`;

/**
 * Where a search looks: the page's account, or every account the user may see (`account=all`). Plain links (a
 * full load: the results, their links and the shell are the scope's).
 */
export function SearchScope({
  q,
  current,
  every,
}: {
  q: string;
  current: { id: string; name: string };
  every: boolean;
}) {
  const href = (account: string) => `/search?${new URLSearchParams({ q, account })}`;
  return (
    <nav aria-label="Search in" className="mb-3 flex flex-wrap items-center gap-2 text-sm">
      <span className="text-zinc-700 dark:text-zinc-300">Search in:</span>
      <a href={href(current.id)} aria-current={every ? undefined : 'page'} className={tab}>
        {current.name}
      </a>
      <a href={href('all')} aria-current={every ? 'page' : undefined} className={tab}>
        All accounts
      </a>
    </nav>
  );
}
