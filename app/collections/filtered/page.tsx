import type { Metadata } from 'next';
import { readListState, toSearchParams } from '@/lib/api/list-state';
import { FilteredCollections } from '../collections-view';

export const metadata: Metadata = { title: 'Collections' };

/**
 * Filtered, searched or sorted collections, served from the index. Users do not see this path: proxy.ts
 * rewrites `/collections?<filters>` here, so the view is a page of its own and does not download the live
 * list's table libraries. (The rewritten request meets the proxy too: sending this
 * path back to `/collections` looped. Typed by hand, it shows the same view.)
 */
export default async function FilteredCollectionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <FilteredCollections state={readListState(toSearchParams(await searchParams))} />;
}
