import 'server-only';
import type { Visible } from './access';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The same address in another account: its path and query, `account=` replaced. */
export function inAccount(url: URL, id: string): string {
  const search = new URLSearchParams(url.search);
  search.set('account', id);
  return `${url.pathname}?${search}`;
}

/**
 * The page a browser gets for an `account=` that is no account (400) or one the user may not see (403): what
 * was wrong, and the accounts they may see, each a link to the same address there. Plain HTML from proxy.ts,
 * before any of the app renders, so it holds nothing of any account but the names the user may already see.
 */
export function accountRefusalPage(url: URL, refusal: { status: 400 | 403; message: string }, visible: Visible[]) {
  const items = visible
    .map(
      ({ account }) =>
        `<li><a href="${escape(inAccount(url, account.id))}">${escape(account.name)}</a> <span>(${account.mode === 'test' ? 'test data' : 'live'})</span></li>`,
    )
    .join('');
  const title = refusal.status === 403 ? 'You may not see this account' : 'Choose an account';
  const list = visible.length
    ? `<h2>Your accounts</h2><ul>${items}</ul>`
    : '<p>You may see no account of this dashboard: ask an admin of the dashboard.</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${title} · Collections Console</title><style>body{font-family:system-ui,sans-serif;line-height:1.5;max-width:40rem;margin:3rem auto;padding:0 1rem}a{color:LinkText}span{opacity:.85}</style></head><body><main><h1>${title}</h1><p role="alert">${escape(refusal.message)}.</p>${list}</main></body></html>`;
}
