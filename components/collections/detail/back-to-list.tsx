'use client';

import Link from '@/components/account/account-scope';
import { useSyncExternalStore } from 'react';
import { focusRing } from '@/components/ui/button';
import { recallListHref } from '../list-memory';

const noSubscribe = () => () => {};

/** Back to the list page the user came from (page and limit kept), else the first page. */
export function BackToList() {
  const href = useSyncExternalStore(
    noSubscribe,
    () => recallListHref() ?? '/collections',
    () => '/collections',
  );
  return (
    <Link
      href={href}
      className={`inline-flex items-center gap-1 rounded text-sm text-sky-800 hover:underline dark:text-sky-300 ${focusRing}`}
    >
      <span aria-hidden="true">←</span> Back to collections
    </Link>
  );
}
