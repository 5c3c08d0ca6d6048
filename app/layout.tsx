import { Announcer } from '@/components/ui/announce';
import type { Metadata, Viewport } from 'next';
import { cookies } from 'next/headers';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { DisplayProvider } from '@/components/display/display-provider';
import { AppHeader } from '@/components/layout/app-header';
import { DISPLAY_COOKIE, parseDisplay } from '@/lib/display/preferences';
import { AccountScope } from '@/components/account/account-scope';
import { visibleAccounts } from '@/lib/server/accounts/access';
import { publicAccount } from '@/lib/server/accounts/config';
import { requestContext } from '@/lib/server/context';
import { getConfig } from '@/lib/server/env';
import { pageRuntime } from '@/lib/server/page-runtime';
import { pinnedViews } from '@/lib/server/reads/views';
import { sandboxExamples } from '@/lib/server/sandbox-examples';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Collections Console', template: '%s · Collections Console' },
  description: 'Browse collections and providers of your payments account.',
  robots: { index: false, follow: false },
};

export const viewport: Viewport = {
  colorScheme: 'light dark',
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#fafafa' },
    { media: '(prefers-color-scheme: dark)', color: '#18181b' },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const rt = await pageRuntime();
  // Every page reads per-request configuration and live data: never prerender.
  await connection();
  // The shell's index indicator starts from the state the server knows (cached 2 s): asked at once, beside
  // the rest, and shown only to someone let in.
  const indexStatus = rt.index.status().catch(() => null);
  const config = getConfig();
  const examples = await sandboxExamples(rt.account);
  const display = parseDisplay((await cookies()).get(DISPLAY_COOKIE)?.value);
  // Who is signed in, for the shell (proxy.ts has already let the request through).
  const context = await requestContext().catch(() => null);
  const principal = context?.principal ?? null;
  // The team's pinned views under Collections (their counts stream in after the page).
  const pinned = context ? await pinnedViews(rt, context).catch(() => []) : [];
  const user = principal?.kind === 'user' && principal.via !== 'open' ? principal : null;
  const index = principal ? await indexStatus : null;
  // Several accounts: the switcher lists those the user may see (names and modes only, never a key).
  const accounts =
    principal?.kind === 'user' && config.multiAccount
      ? visibleAccounts(config, { ...principal, role: principal.globalRole }).map(({ account }) =>
          publicAccount(account),
        )
      : [];
  const shownAccount = config.multiAccount ? publicAccount(rt.account) : null;
  return (
    <html lang="en" data-density={display.density}>
      <body className="min-h-screen">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-sm dark:focus:bg-zinc-900"
        >
          Skip to content
        </a>
        {/* Icons drawn once and referenced by <use>: a table of 100 rows repeats none of them. */}
        <svg aria-hidden="true" width="0" height="0" className="absolute">
          <symbol id="i-copy" viewBox="0 0 16 16">
            <path
              fill="currentColor"
              d="M5 1h8a2 2 0 0 1 2 2v8h-1.5V3a.5.5 0 0 0-.5-.5H5zM3 4h7a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2H3a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2m0 1.5a.5.5 0 0 0-.5.5v7a.5.5 0 0 0 .5.5h7a.5.5 0 0 0 .5-.5V6a.5.5 0 0 0-.5-.5z"
            />
          </symbol>
          <symbol id="i-check" viewBox="0 0 16 16">
            <path fill="currentColor" d="M6.2 11.6 2.6 8l1-1 2.6 2.6 6.2-6.2 1 1z" />
          </symbol>
          {/* Pagination: first, previous, next, last. */}
          <symbol id="i-first" viewBox="0 0 16 16">
            <path fill="currentColor" d="M3 3h1.5v10H3zm9.7 1.1L8.8 8l3.9 3.9-1 1.1-5-5 5-5z" />
          </symbol>
          <symbol id="i-prev" viewBox="0 0 16 16">
            <path fill="currentColor" d="M10.7 2.9 11.8 4 7.8 8l4 4-1.1 1.1L5.6 8z" />
          </symbol>
          <symbol id="i-next" viewBox="0 0 16 16">
            <path fill="currentColor" d="M5.3 2.9 4.2 4l4 4-4 4 1.1 1.1L10.4 8z" />
          </symbol>
          <symbol id="i-last" viewBox="0 0 16 16">
            <path fill="currentColor" d="M11.5 3H13v10h-1.5zM3.3 4.1 7.2 8l-3.9 3.9 1 1.1 5-5-5-5z" />
          </symbol>
          {/* Status meanings (StatusBadge): a ring with a check, clock hands, a slash or a cross. */}
          <symbol id="i-paid" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6">
            <circle cx="8" cy="8" r="6.2" />
            <path d="m5.2 8.2 1.9 1.9 3.8-4" />
          </symbol>
          <symbol id="i-waiting" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6">
            <circle cx="8" cy="8" r="6.2" />
            <path d="M8 4.6V8l2.2 1.4" />
          </symbol>
          <symbol id="i-ended" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6">
            <circle cx="8" cy="8" r="6.2" />
            <path d="m3.8 12.2 8.4-8.4" />
          </symbol>
          <symbol id="i-failed" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6">
            <circle cx="8" cy="8" r="6.2" />
            <path d="m5.6 5.6 4.8 4.8m0-4.8-4.8 4.8" />
          </symbol>
        </svg>
        <AccountScope account={shownAccount?.id ?? null}>
          <DisplayProvider initial={display}>
            <AppHeader
              sandbox={config.upstream.sandbox}
              account={shownAccount && accounts.length ? { current: shownAccount, accounts } : null}
              testData={rt.account.mode === 'test'}
              examples={examples}
              user={user ? { name: user.displayName, role: user.role, canSignOut: user.via === 'session' } : null}
              admin={principal?.kind === 'user' && principal.role === 'admin'}
              index={index}
              pinned={pinned}
            />
            <main id="main" className="mx-auto max-w-7xl px-4 py-6">
              {children}
            </main>
            <Announcer />
          </DisplayProvider>
        </AccountScope>
      </body>
    </html>
  );
}
