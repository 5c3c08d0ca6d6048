'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { Popover } from '@/components/ui/popover';
import { focusRing } from '@/components/ui/button';
import type { DeferredProps } from '@/components/ui/deferred';
import { switchedHref, type ShownAccount } from '@/lib/accounts/href';
import { ACCOUNT_BUTTON, AccountLabel } from './account-label';

/**
 * "Account: <name>": the accounts the user may see, each with its mode; choosing one opens the same page there
 * (a list keeps its filters, a record goes to the list); loaded at first use (account-switcher.tsx). A full load, not a client navigation: the shell, the
 * queries' cache and every link are the account's.
 */
export default function AccountMenu({
  current,
  accounts,
  initialOpen = false,
  focusOnMount = false,
}: { current: ShownAccount; accounts: ShownAccount[] } & DeferredProps) {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const here = (id: string) => switchedHref(pathname, search, id);
  return (
    <Popover
      label={<AccountLabel account={current} />}
      buttonClassName={ACCOUNT_BUTTON}
      initialOpen={initialOpen}
      focusOnMount={focusOnMount}
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
