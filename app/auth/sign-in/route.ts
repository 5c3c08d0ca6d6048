import { SIGN_IN_COOKIE, SIGN_IN_TTL_S } from '@/lib/server/access';
import { getConfig } from '@/lib/server/env';
import { authorizationUrl, safeReturnTo } from '@/lib/server/auth/oidc';
import { authPage, cookie } from '@/lib/server/auth/page';
import { seal } from '@/lib/server/auth/seal';
import { logger } from '@/lib/server/logger';

/**
 * `GET /auth/sign-in?returnTo=/collections/pay_…`: off to the identity provider
 * (authorization code flow with PKCE), carrying state and nonce; the verifier,
 * state, nonce and where to come back to wait in a sealed cookie that only the
 * callback reads, for ten minutes, once.
 */
export async function GET(request: Request) {
  const config = getConfig();
  if (!config.oidc)
    return authPage({
      status: 404,
      title: 'Sign-in is not set up',
      message: 'This dashboard has no identity provider configured.',
    });
  const returnTo = safeReturnTo(new URL(request.url).searchParams.get('returnTo'));
  try {
    const { url, transaction } = await authorizationUrl(config.oidc, returnTo);
    const sealed = await seal(transaction, 'sign-in', config.sessionSecrets, SIGN_IN_TTL_S);
    return new Response(null, {
      status: 302,
      headers: {
        Location: url.href,
        'Cache-Control': 'private, no-store',
        'Set-Cookie': cookie(SIGN_IN_COOKIE, sealed, {
          maxAge: SIGN_IN_TTL_S,
          path: '/auth/callback',
          secure: config.dashboardUrl!.startsWith('https:'),
        }),
      },
    });
  } catch (error) {
    logger.error({ err: error instanceof Error ? error.message : String(error) }, 'identity provider unreachable');
    return authPage({
      status: 503,
      title: 'The identity provider could not be reached',
      message: 'Signing in needs your company’s identity provider, which did not answer. Try again in a moment.',
      action: { href: `/auth/sign-in?returnTo=${encodeURIComponent(returnTo)}`, label: 'Try again' },
    });
  }
}
