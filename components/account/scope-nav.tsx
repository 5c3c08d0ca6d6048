import { focusRing } from '@/components/ui/button';

const tab = `rounded-md border border-zinc-300 px-2 py-1 aria-[current]:border-zinc-900 aria-[current]:font-medium dark:border-zinc-700 dark:aria-[current]:border-zinc-100 ${focusRing}`;

/**
 * Whose data a page shows: the page's account, or every account the user may see (`account=all`: a search, the
 * overview). Plain links (a full load: the figures, their links and the shell are the scope's).
 */
export function AccountScopeNav({
  label,
  current,
  every,
  href,
}: {
  /** The navigation's name: "Search in", "Overview of". */
  label: string;
  current: { id: string; name: string };
  every: boolean;
  href: (account: string) => string;
}) {
  return (
    <nav aria-label={label} className="mb-3 flex flex-wrap items-center gap-2 text-sm">
      <span className="text-zinc-700 dark:text-zinc-300">{label}:</span>
      <a href={href(current.id)} aria-current={every ? undefined : 'page'} className={tab}>
        {current.name}
      </a>
      <a href={href('all')} aria-current={every ? 'page' : undefined} className={tab}>
        All accounts
      </a>
    </nav>
  );
}
