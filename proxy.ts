import { NextResponse, type NextRequest } from 'next/server';
import { errorMessage } from '@/lib/api/errors';
import { CORRECTIONS_COOKIE, encodeCorrections, listCorrections } from '@/lib/api/list-corrections';
import { correctedCollectionsUrl } from '@/lib/api/list-state';
import { correctedOverviewUrl } from '@/lib/api/overview';
import { authenticate, basicUserName, SESSION_COOKIE, WWW_AUTHENTICATE } from '@/lib/server/access';
import {
  ACCOUNT_COOKIE,
  ACCOUNT_HEADER,
  chooseAccount,
  rememberedValue,
  visibleAccounts,
} from '@/lib/server/accounts/access';
import { EVERY_ACCOUNT } from '@/lib/server/accounts/config';
import { accountRefusalPage, inAccount } from '@/lib/server/accounts/refusal-page';
import { refusedEntry } from '@/lib/server/audit/audit';
import type { Identity } from '@/lib/server/auth/identity';
import { getConfig } from '@/lib/server/env';
import { failureResponse } from '@/lib/server/errors';
import { logger } from '@/lib/server/logger';
import { runtime, type Runtime } from '@/lib/server/runtime';
import { securityHeaders } from '@/lib/server/security-headers';

/**
 * Runs before every route: a request id, the access gate (checked again by the
 * data layer, never here alone), security headers with a per-request CSP
 * nonce, and a real redirect for bad page/limit before anything renders.
 */
export async function proxy(request: NextRequest) {
  const rt = runtime();
  const response = await gate(rt, request);
  // Pages as the gate decided them (the /api routes count themselves, with their final status).
  const { pathname } = request.nextUrl;
  if (!pathname.startsWith('/api/') && !pathname.startsWith('/auth/'))
    rt.metrics.recordPage(
      pathname,
      response.status >= 300 && response.status < 400 ? 'redirected' : response.status >= 400 ? 'refused' : 'passed',
    );
  return response;
}

async function gate(rt: Runtime, request: NextRequest) {
  const { pathname, searchParams, protocol } = request.nextUrl;
  const requestId = crypto.randomUUID();
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const https = protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  const headers: Record<string, string> = {
    ...securityHeaders({ nonce, dev: process.env.NODE_ENV === 'development', https }),
    'X-Request-Id': requestId,
  };
  const config = getConfig();
  // Signing in and out must be reachable without a session; those routes check what they need themselves.
  // Probes and the metrics scraper are not users: health and readiness say nothing, metrics has its own token.
  const ungated =
    pathname.startsWith('/auth/') ||
    pathname === '/api/health' ||
    pathname === '/api/ready' ||
    pathname === '/api/metrics';
  const access = ungated
    ? null
    : await authenticate(config, {
        authorization: request.headers.get('authorization'),
        cookie: request.headers.get('cookie'),
      });

  if (access && !access.ok) {
    logger.warn({ requestId, path: pathname, action: 'access_denied' }, 'access denied');
    // Credentials that did not pass are audited; a request that brought none is someone not signed in yet.
    const authorization = request.headers.get('authorization');
    if (authorization || request.cookies.has(SESSION_COOKIE))
      rt.audit.record(refusedEntry(requestId, basicUserName(authorization), pathname, 'unauthorized'));
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return failureResponse({ code: 'unauthorized', message: errorMessage('unauthorized', 'collections') }, headers);
    }
    // A page goes to the identity provider and comes back. Next strips the RSC headers before this runs, so a
    // client-side navigation or prefetch gets the same redirect: its fetch cannot follow it off-site, and the
    // router falls back to loading the page, which signs in. No data either way.
    const navigation = request.method === 'GET';
    if (config.oidc && navigation) {
      const signIn = new URL('/auth/sign-in', request.url);
      signIn.searchParams.set('returnTo', `${pathname}${request.nextUrl.search}`);
      const response = NextResponse.redirect(signIn, 307);
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      response.headers.set('Cache-Control', 'private, no-store');
      return response;
    }
    return new NextResponse('Sign in to use Collections Console.', {
      status: 401,
      headers: {
        ...headers,
        // The browser's own credentials prompt, only when there are Basic users to type in.
        ...(config.access.users.length ? { 'WWW-Authenticate': WWW_AUTHENTICATE } : {}),
        'Cache-Control': 'private, no-store',
        'Content-Type': 'text/plain; charset=utf-8',
      },
    });
  }

  // Several accounts: every page names its account (section 3). One not named gets the user's default; one
  // that is no account, or not theirs, a page saying so with the accounts they may see.
  const page = !pathname.startsWith('/api/') && !pathname.startsWith('/auth/');
  const chosen = access?.ok && page && config.multiAccount ? pageAccount(rt, request, access.identity, headers) : null;
  if (chosen instanceof Response) return chosen;
  const role = chosen?.role ?? (access?.ok ? access.identity.role : null);

  // Admin routes (contract section 10): a viewer gets 403 forbidden_role here, and again from the data layer.
  const adminRoute = pathname === '/audit' || pathname === '/api/audit' || pathname.startsWith('/api/audit/');
  if (access?.ok && adminRoute && role !== 'admin') {
    logger.warn({ requestId, path: pathname, user: access.identity.name, action: 'access_denied' }, 'admins only');
    rt.audit.record(refusedEntry(requestId, access.identity.name, pathname, 'forbidden_role'));
    const failure = { code: 'forbidden_role' as const, message: errorMessage('forbidden_role', 'collections') };
    if (pathname.startsWith('/api/')) return failureResponse(failure, headers);
    return new NextResponse(`${failure.message}. The audit log is for admins.`, {
      status: 403,
      headers: { ...headers, 'Cache-Control': 'private, no-store', 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }

  if (pathname === '/collections' || pathname === '/overview') {
    const corrected =
      pathname === '/collections' ? correctedCollectionsUrl(searchParams) : correctedOverviewUrl(searchParams);
    if (corrected) {
      const response = NextResponse.redirect(new URL(corrected, request.url), 307);
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      // The page it lands on says what changed and why (components/collections/corrections-notice.tsx).
      const said = pathname === '/collections' ? encodeCorrections(listCorrections(searchParams)) : '';
      if (said) response.cookies.set(CORRECTIONS_COOKIE, said, { path: '/collections', maxAge: 60, sameSite: 'lax' });
      return response;
    }
  }

  const requestHeaders = new Headers(request.headers);
  // The page's account as checked above; a client's own header is never passed on.
  requestHeaders.delete(ACCOUNT_HEADER);
  if (chosen) requestHeaders.set(ACCOUNT_HEADER, chosen.account.id);
  requestHeaders.set('x-request-id', requestId);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('content-security-policy', headers['Content-Security-Policy']!);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  // Downloads: no-transform keeps the server's gzip from holding streamed rows back (and the progress bar with them).
  response.headers.set(
    'Cache-Control',
    pathname.startsWith('/api/export/') ? 'private, no-store, no-transform' : 'private, no-store',
  );
  if (chosen?.remember)
    response.cookies.set(ACCOUNT_COOKIE, chosen.remember, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: https,
      maxAge: 365 * 86_400,
    });
  return response;
}

/** Pages that take `account=all` (every account the user may see). */
const EVERY_ACCOUNT_PAGES = new Set(['/search', '/overview']);

/**
 * A page's account: the one `account=` names (checked), or a redirect naming the user's default, or the refusal
 * page. `remember`: the cookie's new value when the user opened another account than their last.
 */
function pageAccount(rt: Runtime, request: NextRequest, identity: Identity, headers: Record<string, string>) {
  const { pathname, searchParams } = request.nextUrl;
  const config = rt.config;
  const asked = searchParams.get('account');
  const every = asked === EVERY_ACCOUNT && EVERY_ACCOUNT_PAGES.has(pathname);
  const cookie = request.cookies.get(ACCOUNT_COOKIE)?.value;
  const choice = chooseAccount(config, identity, every ? null : asked, cookie);
  const finish = (response: NextResponse) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    response.headers.set('Cache-Control', 'private, no-store');
    return response;
  };
  if (!choice.ok) {
    const requestId = headers['X-Request-Id']!;
    if (choice.code === 'forbidden_account') {
      logger.warn({ requestId, path: pathname, user: identity.name, action: 'access_denied' }, 'account not visible');
      rt.audit.record(refusedEntry(requestId, identity.name, pathname, 'forbidden_account', asked));
    }
    const status = choice.code === 'forbidden_account' ? 403 : 400;
    const html = accountRefusalPage(
      request.nextUrl,
      { status, message: choice.message },
      visibleAccounts(config, identity),
    );
    return finish(new NextResponse(html, { status, headers: { 'Content-Type': 'text/html; charset=utf-8' } }));
  }
  if (asked === null && request.method === 'GET')
    return finish(NextResponse.redirect(new URL(inAccount(request.nextUrl, choice.account.id), request.url), 307));
  const value = rememberedValue(identity, choice.account.id);
  return { ...choice, remember: !every && value !== cookie ? value : null };
}

export const config = {
  // Everything but build assets and /api/: pages, RSC and prefetch requests alike. /api/ routes run the same gate
  // and give the same headers through lib/server/route.ts (this machinery alone cost ~2 ms of CPU a request).
  matcher: ['/((?!api/|_next/static|_next/image|icon.svg|favicon.ico).*)'],
};
