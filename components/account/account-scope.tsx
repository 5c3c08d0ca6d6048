'use client';

import NextLink from 'next/link';
import { useRouter as useNextRouter } from 'next/navigation';
import { createContext, useContext, useMemo, type ComponentProps, type ReactNode } from 'react';
import { accountOf, withAccount } from '@/lib/accounts/href';

/**
 * The page's account for every link under it (null with one account: links stay as they were). Set once by the
 * root layout; switching account is a full load (components/account/account-switcher.tsx), so it never goes
 * stale under a layout that client-side navigation keeps.
 */
const AccountContext = createContext<string | null>(null);

export function AccountScope({ account, children }: { account: string | null; children: ReactNode }) {
  return <AccountContext.Provider value={account}>{children}</AccountContext.Provider>;
}

/** The page's account id, or null with one account. */
export const usePageAccount = () => useContext(AccountContext);

/** An address of the dashboard as this page's account links it. */
export function useAccountHref(): (href: string) => string {
  const account = useContext(AccountContext);
  return (href) => withAccount(href, account);
}

/** next/link, with the page's account in every address of the dashboard it renders. */
export default function Link({ href, ...props }: ComponentProps<typeof NextLink>) {
  const account = useContext(AccountContext);
  return <NextLink {...props} href={typeof href === 'string' ? withAccount(href, account) : href} />;
}

/** next/navigation's router, pushing and replacing addresses with the page's account in them. */
export function useRouter(): ReturnType<typeof useNextRouter> {
  const router = useNextRouter();
  const account = useContext(AccountContext);
  return useMemo(() => {
    // Another account's address is a full load: the shell (switcher, marker, links) is the layout's.
    const go = (href: string, client: () => void) => {
      const target = withAccount(href, account);
      if (account && accountOf(target) !== account) window.location.assign(target);
      else client();
    };
    return {
      ...router,
      push: (href, options) => go(href, () => router.push(withAccount(href, account), options)),
      replace: (href, options) => go(href, () => router.replace(withAccount(href, account), options)),
      prefetch: (href, options) => router.prefetch(withAccount(href, account), options),
    };
  }, [router, account]);
}

/** A GET form's hidden `account` field, so what it submits stays in the page's account. */
export function AccountField() {
  const account = useContext(AccountContext);
  return account ? <input type="hidden" name="account" value={account} /> : null;
}
