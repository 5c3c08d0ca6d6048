import Link from '@/components/account/account-scope';
import { Suspense } from 'react';
import { DisplayMenu } from '@/components/display/display-menu';
import { Badge } from '@/components/ui/badge';
import { focusRing } from '@/components/ui/button';
import { IndexIndicator } from '@/components/search-index/index-indicator';
import type { IndicatorStatus } from '@/components/search-index/index-indicator-label';
import { hrefForId } from '@/lib/api/open-target';
import { AccountSwitcher } from '@/components/account/account-switcher';
import type { ShownAccount } from '@/lib/accounts/href';
import { NavigationProgress } from './navigation-progress';
import { MobileMenu } from './mobile-menu';
import { SearchBox } from './search-box';

const navLink = `rounded px-1 text-sm text-zinc-700 hover:text-zinc-950 dark:text-zinc-300 dark:hover:text-white ${focusRing}`;

/**
 * One line at desktop width: name, navigation, index state, then Search and
 * Display. Against the sandbox, a thin strip above says so (like a payments
 * dashboard's test mode) and offers a few ids to open.
 */
export type ShellUser = { name: string; role: 'viewer' | 'admin'; canSignOut: boolean };

/** A shared view an admin pinned to the navigation, its count to come (it streams in: never held for). */
export type PinnedView = { id: string; name: string; href: string; count: Promise<{ count: number | null }> };

export function AppHeader({
  sandbox,
  account = null,
  testData = false,
  examples,
  user,
  admin,
  index,
  pinned = [],
}: {
  /** The team's pinned views (contract section 13), under Collections. */
  pinned?: PinnedView[];
  /** The index's state as the server saw it (null when it could not be read). */
  index: IndicatorStatus | null;
  sandbox: boolean;
  /** Several accounts: the current one and those the user may see (the switcher). */
  account?: { current: ShownAccount; accounts: ShownAccount[] } | null;
  /** The account is a test account: every page says so. */
  testData?: boolean;
  examples: string[];
  user: ShellUser | null;
  /** Admins also see the audit log in the navigation. */
  admin: boolean;
}) {
  return (
    <header className="border-b border-zinc-200 bg-zinc-50/80 dark:border-zinc-800 dark:bg-zinc-900/60">
      <Suspense fallback={null}>
        <NavigationProgress />
      </Suspense>
      {sandbox ? (
        <div className="border-b border-violet-200 bg-violet-50 text-xs text-violet-950 dark:border-violet-900 dark:bg-violet-950/40 dark:text-violet-100">
          <p className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-2 gap-y-1 px-4 py-1">
            <Badge tone="violet" title="The upstream is the embedded sandbox: generated, not real, data">
              Sandbox data
            </Badge>
            <span>Generated records, not real payments.</span>
            {examples.length ? (
              <span className="hidden md:inline">
                Try:{' '}
                {examples.map((id, i) => (
                  <span key={id}>
                    {i ? ', ' : ''}
                    <Link
                      prefetch={false}
                      href={hrefForId(id) ?? '#'}
                      className={`rounded font-mono underline decoration-dotted hover:text-violet-700 dark:hover:text-white ${focusRing}`}
                    >
                      {id}
                    </Link>
                  </span>
                ))}
              </span>
            ) : null}
          </p>
        </div>
      ) : null}
      {testData ? (
        <div className="border-b border-amber-300 bg-amber-50 text-xs text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100">
          <p className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-2 px-4 py-1">
            <Badge tone="amber">Test data</Badge>
            <span>
              {account ? `${account.current.name} is a test account` : 'This is a test account'}: its payments are not
              real money.
            </span>
          </p>
        </div>
      ) : null}
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 sm:py-2.5 lg:flex-nowrap lg:gap-x-4">
        <Link href="/collections" className={`shrink-0 font-semibold tracking-tight ${focusRing} rounded`}>
          Collections Console
        </Link>
        {/* One row from 640 px; below, a Menu beside the name (the links would wrap onto rows of their own). */}
        <nav aria-label="Main" className="hidden shrink-0 gap-x-3 sm:flex">
          <MainLinks admin={admin} />
        </nav>
        <MobileMenu>
          <nav aria-label="Main" className="flex flex-col gap-1">
            <MainLinks admin={admin} />
          </nav>
        </MobileMenu>
        {account ? (
          <div className="shrink-0">
            <AccountSwitcher current={account.current} accounts={account.accounts} />
          </div>
        ) : null}
        <div className="ml-auto shrink-0 sm:ml-0">
          <IndexIndicator initial={index} />
        </div>
        <div className="flex w-full min-w-0 items-center gap-2 sm:ml-auto sm:w-auto">
          <SearchBox />
          <DisplayMenu />
          {user ? <SignedIn user={user} /> : null}
        </div>
      </div>
      {pinned.length ? (
        <nav aria-label="Pinned views" className="mx-auto -mt-1 max-w-7xl px-4 pb-2">
          <ul className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
            {pinned.map((pin) => (
              <li key={pin.id}>
                <Link href={pin.href} className={`${navLink} inline-flex items-center gap-1.5`}>
                  {pin.name}
                  <Suspense fallback={null}>
                    <PinCount count={pin.count} />
                  </Suspense>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </header>
  );
}

/** The main navigation's links (the same in the row and in the Menu); admins also see the audit log and status. */
const MAIN_LINKS = [
  ['/collections', 'Collections', false],
  ['/overview', 'Overview', false],
  ['/lookup', 'Lookup', false],
  ['/tags', 'Tags', false],
  ['/audit', 'Audit', true],
  ['/status', 'Status', true],
] as const;

function MainLinks({ admin }: { admin: boolean }) {
  return MAIN_LINKS.filter(([, , adminOnly]) => admin || !adminOnly).map(([href, text]) => (
    <Link key={href} href={href} className={navLink}>
      {text}
    </Link>
  ));
}

/** A pinned view's count, when it comes (the index counts it; cached a while). */
async function PinCount({ count }: { count: PinnedView['count'] }) {
  const { count: n } = await count;
  if (n === null) return null;
  return (
    <span className="rounded-full bg-zinc-200 px-1.5 text-xs tabular-nums text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200">
      {new Intl.NumberFormat('en').format(n)}
    </span>
  );
}

/** Who is signed in and as what; "Sign out" for a session (Basic credentials end with the browser). */
function SignedIn({ user }: { user: ShellUser }) {
  return (
    <div className="flex shrink-0 items-center gap-2 text-sm">
      <span className="max-w-32 truncate" title={user.name}>
        {user.name}
      </span>
      <Badge tone={user.role === 'admin' ? 'violet' : 'neutral'}>{user.role === 'admin' ? 'Admin' : 'Viewer'}</Badge>
      {user.canSignOut ? (
        <form method="post" action="/auth/sign-out">
          <button
            type="submit"
            className={`rounded-md border border-zinc-300 bg-white px-2 py-1.5 dark:border-zinc-700 dark:bg-zinc-900 ${focusRing}`}
          >
            Sign out
          </button>
        </form>
      ) : null}
    </div>
  );
}
