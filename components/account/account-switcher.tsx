'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { Popover } from '@/components/ui/popover';
import { focusRing } from '@/components/ui/button';
import { switchedHref, type ShownAccount } from '@/lib/accounts/href';

const BUTTON =
  'max-w-56 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900';

/**
 * "Account: <name>": the accounts the user may see, each with its mode; choosing one opens the same page there
 * (a list keeps its filters, a record goes to the list). A full load, not a client navigation: the shell, the
 * queries' cache and every link are the account's.
 */
export function AccountSwitcher({ current, accounts }: { current: ShownAccount; accounts: ShownAccount[] }) {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const here = (id: string) => switchedHref(pathname, search, id);
  return (
    <Popover
      label={
        <>
          <span className="sr-only sm:not-sr-only">Account:</span>{' '}
          <span className="truncate font-medium">{current.name}</span>
          {current.mode === 'test' ? <span className="badge badge-amber">Test</span> : null}
        </>
      }
      buttonClassName={BUTTON}
      panelClassName="right-0 w-72 text-sm sm:left-0 sm:right-auto"
    >
      <h2 className="mb-1 font-medium" id="accounts-heading">
        Accounts
      </h2>
      <ul aria-labelledby="accounts-heading" className="space-y-0.5">
        {accounts.map((account) => (
          <li key={account.id}>
            <a
              href={here(account.id)}
              aria-current={account.id === current.id ? 'true' : undefined}
              className={`flex items-center justify-between gap-2 rounded px-2 py-1.5 hover:bg-zinc-100 aria-[current]:bg-zinc-100 dark:hover:bg-zinc-800 dark:aria-[current]:bg-zinc-800 ${focusRing}`}
            >
              <span className="min-w-0 truncate">{account.name}</span>
              <span className={`badge ${account.mode === 'test' ? 'badge-amber' : 'badge-green'}`}>
                {account.mode === 'test' ? 'Test' : 'Live'}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </Popover>
  );
}
