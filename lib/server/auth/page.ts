import 'server-only';

/**
 * The few pages of signing in and out, outside the app's shell (which needs a
 * signed-in user): plain HTML, readable in light and dark, nothing to load.
 */
const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export type AuthPage = { status: number; title: string; message: string; action?: { href: string; label: string } };

export function authPage(page: AuthPage, headers: HeadersInit = {}): Response {
  const action = page.action ? `<p><a href="${escape(page.action.href)}">${escape(page.action.label)}</a></p>` : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(page.title)} · Collections Console</title>
<style>
:root{color-scheme:light dark;font-family:system-ui,sans-serif}
body{margin:0;display:grid;min-height:100vh;place-items:center;background:#fafafa;color:#18181b}
main{max-width:28rem;margin:1rem;padding:1.5rem;border:1px solid #e4e4e7;border-radius:.5rem;background:#fff}
h1{font-size:1.25rem;margin:0 0 .75rem}p{line-height:1.5}a{color:#075985;font-weight:600}
@media (prefers-color-scheme:dark){body{background:#09090b;color:#f4f4f5}main{background:#18181b;border-color:#3f3f46}a{color:#7dd3fc}}
</style></head>
<body><main><p>Collections Console</p><h1>${escape(page.title)}</h1><p>${escape(page.message)}</p>${action}</main></body></html>`;
  const response = new Response(html, { status: page.status, headers });
  response.headers.set('Content-Type', 'text/html; charset=utf-8');
  response.headers.set('Cache-Control', 'private, no-store');
  return response;
}

/** A `Set-Cookie` value; `Secure` whenever the dashboard is served over https. */
export function cookie(
  name: string,
  value: string,
  options: { maxAge: number; path?: string; secure: boolean },
): string {
  return [
    `${name}=${value}`,
    `Path=${options.path ?? '/'}`,
    `Max-Age=${options.maxAge}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}
