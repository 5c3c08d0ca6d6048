/**
 * The list page the user last looked at, so a detail page can offer a way
 * back to it (page and limit kept) without putting list state in detail URLs.
 */
const KEY = 'collections-console:list-href';

export function rememberListHref(href: string) {
  try {
    sessionStorage.setItem(KEY, href);
  } catch {
    // storage disabled: the back link falls back to the first page
  }
}

export function recallListHref(): string | null {
  try {
    const href = sessionStorage.getItem(KEY);
    return href?.startsWith('/collections') ? href : null;
  } catch {
    return null;
  }
}
