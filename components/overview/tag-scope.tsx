import Link from '@/components/account/account-scope';
import { focusRing } from '@/components/ui/button';
import { overviewHref, type Range } from '@/lib/api/overview';
import { listHref } from './list-links';

/**
 * An overview narrowed to some tags (`tag=`, section 16) says so above its figures: each tag with a link that
 * takes it off (the filter bar's names), and the list of the collections counted.
 */
export function TagScope({ range, currency, tag }: { range: Range; currency: string | undefined; tag: string[] }) {
  return (
    <p className="mb-3 flex flex-wrap items-center gap-2 text-sm">
      <span>Collections tagged (any of):</span>
      {tag.map((name) => {
        const rest = tag.filter((t) => t !== name);
        return (
          <span key={name} className="tag tag-grey gap-1">
            {name}
            <Link
              href={overviewHref({ range, currency, tag: rest.length ? rest : undefined })}
              aria-label={`Remove the tag filter ${name}`}
              className={`rounded-full px-1 hover:bg-zinc-200 dark:hover:bg-zinc-700 ${focusRing}`}
            >
              <span aria-hidden="true">×</span>
            </Link>
          </span>
        );
      })}
      <Link href={listHref({}, tag)} className={`font-medium text-sky-800 underline dark:text-sky-300 ${focusRing}`}>
        List them
      </Link>
    </p>
  );
}
