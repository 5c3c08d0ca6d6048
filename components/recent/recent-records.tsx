'use client';

import Link from '@/components/account/account-scope';
import { Button, focusRing } from '@/components/ui/button';
import { hrefOf, type RecordEntry } from '@/lib/recent/records';
import { useClearRecords, useRecords } from './use-records';

function List({ title, entries }: { title: string; entries: RecordEntry[] }) {
  return (
    <section aria-label={title} className="min-w-0">
      <h3 className="text-sm font-medium">{title}</h3>
      {entries.length ? (
        <ul className="mt-1 space-y-1 text-sm">
          {entries.map((e) => (
            <li key={e.id} className="min-w-0">
              <Link href={hrefOf(e)} className={`rounded font-medium underline underline-offset-2 ${focusRing}`}>
                {e.label}
              </Link>{' '}
              <span className="text-xs text-zinc-600 dark:text-zinc-400">
                {e.kind === 'provider' ? 'provider · ' : ''}
                {e.detail}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">None yet.</p>
      )}
    </section>
  );
}

/** The records pinned and recently viewed in this browser, with "Clear". Never sent to the server. */
export function RecentRecords() {
  const records = useRecords();
  const clear = useClearRecords();
  const any = records.recent.length > 0 || records.pinned.length > 0;
  return (
    <section aria-labelledby="recent-title" className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <div className="flex items-center justify-between gap-2">
        <h2 id="recent-title" className="text-base font-semibold">
          Pinned and recently viewed
        </h2>
        {any ? (
          <Button onClick={clear} className="py-0.5 text-xs">
            Clear
          </Button>
        ) : null}
      </div>
      <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
        Kept in this browser only (no contact details); the Search box lists them too.
      </p>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <List title="Pinned" entries={records.pinned} />
        <List title="Recently viewed" entries={records.recent} />
      </div>
    </section>
  );
}
