import Link from '@/components/account/account-scope';
import { focusRing } from '@/components/ui/button';
import { overviewHref, RANGE_SHORT, RANGES, type Range } from '@/lib/api/overview';

/** The overview's range menu ("Range"): each range keeps the currency shown and the tags, if any. */
export function RangeNav({ range, currency, tag }: { range: Range; currency: string | undefined; tag?: string[] }) {
  return (
    <nav aria-label="Range">
      <ul className="flex rounded-md border border-zinc-300 text-sm dark:border-zinc-700">
        {RANGES.map((r) => (
          <li key={r} className="border-zinc-300 not-first:border-l dark:border-zinc-700">
            <Link
              href={overviewHref({ range: r, currency, tag })}
              aria-current={r === range ? 'page' : undefined}
              className={`block px-3 py-1.5 ${focusRing} ${
                r === range
                  ? 'bg-zinc-900 font-medium text-white dark:bg-zinc-100 dark:text-zinc-950'
                  : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800'
              }`}
            >
              {RANGE_SHORT[r]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
