import { authenticate, SESSION_COOKIE } from '@/lib/server/access';
import { authPage, cookie } from '@/lib/server/auth/page';
import { getConfig } from '@/lib/server/env';
import { runtime } from '@/lib/server/runtime';

/**
 * `POST /auth/sign-out` (a form in the shell): the session cookie is cleared
 * and the browser lands on a page that says so. Refused from another origin, so
 * no other site can sign a user out.
 */
export async function POST(request: Request) {
  const rt = runtime();
  const config = getConfig();
  // Browsers say where a form post comes from in Sec-Fetch-Site; with our no-referrer policy, Origin is "null".
  const site = request.headers.get('sec-fetch-site');
  const origin = request.headers.get('origin');
  const own = new URL(request.url).origin;
  const allowed = ['null', own, config.dashboardUrl ? new URL(config.dashboardUrl).origin : own];
  if ((site && site !== 'same-origin' && site !== 'none') || (origin && !allowed.includes(origin)))
    return authPage({
      status: 403,
      title: 'Sign-out refused',
      message: 'The request did not come from this dashboard.',
    });
  const secure = (config.dashboardUrl ?? own).startsWith('https:');
  const who = await authenticate(config, { authorization: null, cookie: request.headers.get('cookie') });
  if (who.ok && who.identity.via === 'session')
    rt.audit.record({
      at: new Date().toISOString(),
      user: who.identity.name,
      role: who.identity.role,
      action: 'sign_out',
      account: null,
      target: null,
      detail: null,
      requestId: request.headers.get('x-request-id') ?? crypto.randomUUID(),
      outcome: 'ok',
    });
  return new Response(null, {
    status: 303,
    headers: {
      Location: '/auth/signed-out',
      'Cache-Control': 'private, no-store',
      'Set-Cookie': cookie(SESSION_COOKIE, '', { maxAge: 0, secure }),
    },
  });
}
