import type { ShownAccount } from '@/lib/accounts/href';

export const ACCOUNT_BUTTON =
  'max-w-56 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900';

/** "Account: <name>" (the word hidden but read out on a phone), and a test account's marker. */
export function AccountLabel({ account }: { account: ShownAccount }) {
  return (
    <>
      <span className="sr-only sm:not-sr-only">Account:</span>{' '}
      <span className="truncate font-medium">{account.name}</span>
      {account.mode === 'test' ? <span className="badge badge-amber">Test</span> : null}
    </>
  );
}
