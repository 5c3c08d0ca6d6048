import type { Metadata } from 'next';
import Link from '@/components/account/account-scope';
import { TagForm, TagRowActions } from '@/components/tags/tags-manager';
import { tagChip } from '@/components/tags/tag-chip';
import { EmptyState } from '@/components/ui/empty-state';
import { DEFAULT_RANGE, overviewHref } from '@/lib/api/overview';
import { isAdmin, requestContext } from '@/lib/server/context';
import { pageRuntime } from '@/lib/server/page-runtime';
import { listTags } from '@/lib/server/reads/tags';
import { toFailure } from '@/lib/server/errors';

export const metadata: Metadata = { title: 'Tags' };

/**
 * `/tags` (section 16): the account's tags, each with how many collections hold it (a link to that list).
 * Admins add, recolour, rename and delete them here; everyone else reads them.
 */
export default async function TagsPage() {
  const rt = await pageRuntime();
  const context = await requestContext();
  const admin = isAdmin(context);
  let tags;
  try {
    tags = (await listTags(rt, context)).data;
  } catch (error) {
    return (
      <>
        <h1 className="mb-2 text-xl font-semibold tracking-tight">Tags</h1>
        <EmptyState title="Tags are not available">{toFailure(error, 'collections').message}</EmptyState>
      </>
    );
  }
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold tracking-tight">Tags</h1>
      <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">
        Groups the API has no field for. Anyone signed in puts them on a collection (Edit tags on its page) or on many
        at once from a list; {admin ? 'you, as an admin, keep the list' : 'admins keep the list'}. Type{' '}
        <code>tag:name</code> in Search to list a tag’s collections.
      </p>
      {admin ? <TagForm /> : null}
      {tags.length ? (
        <table className="mt-4 w-full text-left text-sm">
          <caption className="sr-only">The account’s tags</caption>
          <thead>
            <tr className="border-b border-zinc-200 dark:border-zinc-800">
              <th scope="col" className="py-2 pr-4 font-medium">
                Tag
              </th>
              <th scope="col" className="py-2 pr-4 text-right font-medium">
                Collections
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Figures
              </th>
              {admin ? (
                <th scope="col" className="py-2 font-medium">
                  Change
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {tags.map((tag) => (
              <tr key={tag.name} className="border-b border-zinc-100 dark:border-zinc-900">
                <td className="py-2 pr-4">{tagChip(tag)}</td>
                <td className="py-2 pr-4 text-right tabular-nums">
                  <Link
                    href={`/collections?${new URLSearchParams({ tag: tag.name })}`}
                    className="text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
                    aria-label={`${tag.count.toLocaleString('en')} collections tagged ${tag.name}`}
                  >
                    {tag.count.toLocaleString('en')}
                  </Link>
                </td>
                <td className="py-2 pr-4">
                  <Link
                    href={overviewHref({ range: DEFAULT_RANGE, tag: [tag.name] })}
                    className="text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
                    aria-label={`Overview of the collections tagged ${tag.name}`}
                  >
                    Overview
                  </Link>
                </td>
                {admin ? (
                  <td className="py-2">
                    <TagRowActions name={tag.name} colour={tag.colour} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div className="mt-4">
          <EmptyState title="No tags yet">{admin ? 'Add the first one above.' : 'An admin adds them here.'}</EmptyState>
        </div>
      )}
    </>
  );
}
