import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { focusRing } from '@/components/ui/button';
import { IndexIndicator } from '@/components/search-index/index-indicator';
import { SearchBox } from './search-box';

const navLink = `rounded px-1 text-sm text-zinc-700 hover:text-zinc-950 dark:text-zinc-300 dark:hover:text-white ${focusRing}`;

export function AppHeader({ sandbox, examples }: { sandbox: boolean; examples: string[] }) {
  return (
    <header className="border-b border-zinc-200 bg-zinc-50/80 dark:border-zinc-800 dark:bg-zinc-900/60">
      <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-wrap items-center gap-4 pt-1">
          <Link href="/collections" className={`font-semibold tracking-tight ${focusRing} rounded`}>
            Collections Console
          </Link>
          <nav aria-label="Main" className="flex gap-3">
            <Link href="/collections" className={navLink}>
              Collections
            </Link>
            <Link href="/overview" className={navLink}>
              Overview
            </Link>
            <Link href="/lookup" className={navLink}>
              Lookup
            </Link>
          </nav>
          {sandbox ? (
            <Badge tone="violet" title="The upstream is the embedded sandbox: generated, not real, data">
              Sandbox data
            </Badge>
          ) : null}
          <IndexIndicator />
        </div>
        <SearchBox examples={examples} />
      </div>
    </header>
  );
}
