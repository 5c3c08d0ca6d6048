import { SESSION_COOKIE, SESSION_TTL_S, SIGN_IN_COOKIE, cookieValue } from '@/lib/server/access';
import { refusedEntry } from '@/lib/server/audit/audit';
import { isAllowed, roleFor } from '@/lib/server/auth/identity';
import { completeSignIn, groupsOf, type Transaction } from '@/lib/server/auth/oidc';
import { authPage, cookie } from '@/lib/server/auth/page';
import { open, seal } from '@/lib/server/auth/seal';
import { getConfig } from '@/lib/server/env';
import { logger } from '@/lib/server/logger';
import { runtime } from '@/lib/server/runtime';

/**
 * `GET /auth/callback?code=…&state=…`: the provider sends the browser back
 * here. The sealed sign-in cookie must be present (it is cleared on every
 * answer, so a replayed callback finds none), state, nonce and PKCE must match,
 * the ID token must validate, and the e-mail must be on the allow-list; then a
 * sealed session cookie and back to where the user was going.
 */
export async function GET(request: Request) {
  const rt = runtime();
  const config = getConfig();
  const oidc = config.oidc;
  if (!oidc)
    return authPage({
      status: 404,
      title: 'Sign-in is not set up',
      message: 'This dashboard has no identity provider configured.',
    });
  const requestId = request.headers.get('x-request-id') ?? undefined;
  const secure = config.dashboardUrl!.startsWith('https:');
  const clearTransaction = cookie(SIGN_IN_COOKIE, '', { maxAge: 0, path: '/auth/callback', secure });
  const again = { href: '/auth/sign-in', label: 'Sign in again' };

  const sealed = cookieValue(request.headers.get('cookie'), SIGN_IN_COOKIE);
  const transaction = (await open(sealed, 'sign-in', config.sessionSecrets)) as (Transaction & object) | null;
  if (!transaction) {
    logger.warn({ requestId }, 'sign-in callback without a valid sign-in transaction (expired, replayed or forged)');
    return authPage(
      {
        status: 400,
        title: 'This sign-in has expired',
        message: 'The sign-in took too long, was already used, or did not start here. Start it again.',
        action: again,
      },
      { 'Set-Cookie': clearTransaction },
    );
  }

  // The public URL the provider redirected to, whatever the proxy in front of us calls it.
  const callbackUrl = new URL(oidc.redirectUri);
  callbackUrl.search = new URL(request.url).search;
  let claims: Awaited<ReturnType<typeof completeSignIn>>;
  try {
    claims = await completeSignIn(oidc, callbackUrl, transaction);
  } catch (error) {
    logger.warn({ requestId, err: error instanceof Error ? error.message : String(error) }, 'sign-in failed');
    return authPage(
      {
        status: 400,
        title: 'Sign-in failed',
        message: 'The identity provider’s answer could not be accepted. Start the sign-in again.',
        action: again,
      },
      { 'Set-Cookie': clearTransaction },
    );
  }

  const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
  if (!isAllowed(email, claims.email_verified, oidc)) {
    logger.warn(
      { requestId, user: email ?? claims.sub, action: 'access_denied' },
      'sign-in refused: not on the allow-list',
    );
    rt.audit.record(
      refusedEntry(requestId ?? crypto.randomUUID(), email ?? claims.sub, '/auth/callback', 'not_allowed'),
    );
    return authPage(
      {
        status: 403,
        title: 'You are not allowed to use Collections Console',
        message: `${email ?? 'This account'} is not on the list of people who may sign in. Ask whoever runs the dashboard to add your address or your company’s domain.`,
        action: { href: '/auth/sign-in', label: 'Sign in with another account' },
      },
      { 'Set-Cookie': clearTransaction },
    );
  }

  const name = typeof claims.name === 'string' ? claims.name.slice(0, 200) : undefined;
  // Only the groups some account names: a session cookie stays small whatever the provider sends.
  const groups = groupsOf(claims.groups).filter((group) => oidc.namedGroups.includes(group));
  const session = await seal({ email, name, groups }, 'session', config.sessionSecrets, SESSION_TTL_S);
  rt.audit.record({
    at: new Date().toISOString(),
    user: email!,
    role: roleFor('session', email!, config.access.admins),
    action: 'sign_in',
    target: null,
    detail: null,
    account: null,
    requestId: requestId ?? crypto.randomUUID(),
    outcome: 'ok',
  });
  const headers = new Headers({ Location: transaction.returnTo, 'Cache-Control': 'private, no-store' });
  headers.append('Set-Cookie', clearTransaction);
  headers.append('Set-Cookie', cookie(SESSION_COOKIE, session, { maxAge: SESSION_TTL_S, secure }));
  return new Response(null, { status: 303, headers });
}
