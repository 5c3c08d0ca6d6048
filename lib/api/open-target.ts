import { kindOfId } from './ids';

/**
 * What the "Open by ID" box accepts: a `pay_…` or `prv_…` id, or a pasted
 * dashboard URL naming one (a page or the dashboard's own `/api/…` link), with
 * surrounding spaces and quotes trimmed. The prefix is lower-case in every id
 * the upstream gives, so `PAY_…` or `Prv_…` (a ticket's shouting, a
 * spreadsheet's autocorrect) can only mean that id: its prefix is lowered; the
 * rest of an id is opaque and keeps its case.
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
  if (/^(pay|prv)_/i.test(candidate)) candidate = candidate.slice(0, 4).toLowerCase() + candidate.slice(4);
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
