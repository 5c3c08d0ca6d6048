/**
 * "A navigation has started": said by whatever starts one (a link click, the
 * search box, a table row, a shortcut) and heard by the progress bar in the
 * header, which ends when the URL has changed. A window event, so the code that
 * starts navigations needs no import of the bar itself.
 */
export const NAVIGATION_START = 'collections-console:navigation-start';

/** True when `href` leads somewhere else in this app (not the same page, not a hash on it). */
export function leadsElsewhere(href: string, here: Location | URL): boolean {
  let url: URL;
  try {
    url = new URL(href, here.href);
  } catch {
    return false;
  }
  return url.origin === here.origin && (url.pathname !== here.pathname || url.search !== here.search);
}

export function navigationStarted(href: string) {
  if (typeof window !== 'undefined' && leadsElsewhere(href, window.location))
    window.dispatchEvent(new Event(NAVIGATION_START));
}
