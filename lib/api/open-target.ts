import { kindOfId, normaliseIdPrefix } from './ids';

/**
 * What the "Open by ID" box accepts: a `pay_…` or `prv_…` id, or a pasted
 * dashboard URL naming one (a page or the dashboard's own `/api/…` link), with
 * surrounding spaces and quotes trimmed; an id's prefix read in any case
 * (ids.ts `normaliseIdPrefix`).
 */
export type OpenTarget = { ok: true; href: string; id: string } | { ok: false; message: string };

const QUOTES = /^[\s"'`‘’“”«»]+|[\s"'`‘’“”«»]+$/g;
const HINT = 'Enter a collection id (pay_…), a provider id (prv_…) or a dashboard link';

export function hrefForId(id: string): string | null {
  const kind = kindOfId(id);
  if (kind === 'collection') return `/collections/${id}`;
  if (kind === 'provider') return `/providers/${id}`;
  return null;
}

export function parseOpenTarget(input: string): OpenTarget {
  const text = input.replace(QUOTES, '');
  if (!text) return { ok: false, message: HINT };
  let candidate = text;
  if (/^https?:\/\//i.test(text) || text.startsWith('/')) {
    let path: string;
    try {
      path = new URL(text, 'http://paste.invalid').pathname;
    } catch {
      return { ok: false, message: HINT };
    }
    const match = /^\/(?:api\/)?(collections|providers)\/([^/]+)\/?$/i.exec(path);
    if (!match) return { ok: false, message: 'That link does not point to a collection or provider' };
    candidate = decodeURIComponentSafe(match[2]!);
  }
  candidate = normaliseIdPrefix(candidate);
  const href = hrefForId(candidate);
  return href ? { ok: true, href, id: candidate } : { ok: false, message: HINT };
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
