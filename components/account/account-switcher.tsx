'use client';

import { Deferred } from '@/components/ui/deferred';
import type { ShownAccount } from '@/lib/accounts/href';
import { ACCOUNT_BUTTON, AccountLabel } from './account-label';

const load = () => import('./account-menu').then((m) => m.default);

/** The header's "Account: <name>" button (account-menu.tsx): its list's code loads at first use. */
export function AccountSwitcher({ current, accounts }: { current: ShownAccount; accounts: ShownAccount[] }) {
  return (
    <Deferred
      load={load}
      props={{ current, accounts }}
      label={<AccountLabel account={current} />}
      buttonClassName={ACCOUNT_BUTTON}
    />
  );
}
