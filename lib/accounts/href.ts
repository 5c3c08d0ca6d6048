/**
 * The account in a link (contract section 3): with several accounts every address the dashboard renders names
 * its account, so a link pasted to a colleague opens the same record in the same account. Shared by the server
 * and the browser; `account` null (one account) leaves every link as it was.
 */
export type ShownAccount = { id: string; name: string; mode: 'live' | 'test' };

export function withAccount(href: string, account: string | null): string {
  if (!account || !href.startsWith('/') || href.startsWith('//')) return href;
  const hash = href.indexOf('#');
  const [path, fragment] = hash < 0 ? [href, ''] : [href.slice(0, hash), href.slice(hash)];
  const query = path.indexOf('?');
  const search = new URLSearchParams(query < 0 ? '' : path.slice(query + 1));
  if (search.has('account')) return href;
  search.set('account', account);
  return `${query < 0 ? path : path.slice(0, query)}?${search}${fragment}`;
}

/** The account an address of the dashboard names, or null. */
export function accountOf(href: string): string | null {
  const query = href.indexOf('?');
  if (query < 0) return null;
  const hash = href.indexOf('#', query);
  return new URLSearchParams(href.slice(query + 1, hash < 0 ? undefined : hash)).get('account');
}

/** Record pages: switching account leaves them for the list (the record is the other account's, if anyone's). */
const RECORD = /^\/(collections|providers|contacts)\/[^/]+$/;

/**
 * Where the switcher takes a page to another account: the same page with the same filters, a saved view's
 * `view=` left behind (a view is one account's); a record's page goes to the list.
 */
export function switchedHref(pathname: string, search: string, account: string): string {
  if (RECORD.test(pathname)) return `/collections?account=${encodeURIComponent(account)}`;
  const params = new URLSearchParams(search);
  params.delete('view');
  params.delete('page');
  params.set('account', account);
  return `${pathname}?${params}`;
}
