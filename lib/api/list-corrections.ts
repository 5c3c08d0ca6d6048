import { DEFAULT_LIMIT, listStateSchema, type Field, type SearchLike } from './list-state';

/**
 * What a page changed in a hand-typed list URL, said in words (contract section 5, issue 75): nothing is
 * dropped in silence. proxy.ts redirects to the corrected URL and hands these over in a short-lived cookie;
 * the page names each one in a notice. Plain TypeScript: the notice's words are built in the browser too.
 */
export type Correction =
  | { param: string; given: string; kind: 'dropped' }
  | { param: string; given: string; kind: 'read'; shown: string }
  | { param: string; given: string; kind: 'repeated' }
  | { param: string; given: string; kind: 'swapped'; other: string };

/** A value as the notice quotes it: long text cut, so a pasted paragraph stays one line. */
const MAX_QUOTED = 60;
const quoted = (text: string) => `“${text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text}”`;

/** What each parameter should have been, and what the page shows in its place. */
const WHAT: Record<string, { is: string; instead?: string }> = {
  page: { is: 'a page number', instead: 'page 1 shown' },
  limit: { is: 'a page size', instead: `${DEFAULT_LIMIT} per page shown` },
  sort: { is: 'a sort', instead: 'newest first shown' },
  status: { is: 'a list of statuses' },
  currency: { is: 'a list of currencies' },
  createdFrom: { is: 'a date that exists (YYYY-MM-DD)' },
  createdTo: { is: 'a date that exists (YYYY-MM-DD)' },
  completedFrom: { is: 'a date that exists (YYYY-MM-DD)' },
  completedTo: { is: 'a date that exists (YYYY-MM-DD)' },
  amountMin: { is: 'an amount' },
  amountMax: { is: 'an amount' },
  q: { is: 'a search of 1 to 200 characters' },
  contact: { is: 'a contact id' },
  change: { is: 'a status change (from>to)' },
  changedSince: { is: 'a UTC time' },
};

const RANGES = [
  ['amountMin', 'amountMax'],
  ['createdFrom', 'createdTo'],
  ['completedFrom', 'completedTo'],
] as const;

/** The corrections a list URL needs, in the schema's order; none for a URL already as the page reads it. */
export function listCorrections(search: SearchLike): Correction[] {
  const found: Correction[] = [];
  const value: Record<string, unknown> = {};
  for (const [param, field] of Object.entries(listStateSchema) as [string, Field<unknown>][]) {
    const all = search.getAll(param);
    if (!all.length) continue;
    const raw = all[0]!;
    // Kept as the notice quotes it (one character over, so it still says it was cut).
    const given = raw.slice(0, MAX_QUOTED + 1);
    const read = field.correct(raw);
    value[param] = read;
    if (all.length > 1) found.push({ param, given, kind: 'repeated' });
    const shown = field.format(read);
    // Spaces around a value are no change worth a word.
    if (shown === raw.trim()) continue;
    if (shown === field.format(field.fallback)) found.push({ param, given, kind: 'dropped' });
    else found.push({ param, given, kind: 'read', shown });
  }
  for (const [low, high] of RANGES) {
    const [a, b] = [value[low], value[high]];
    if (a !== undefined && b !== undefined && (a as number | string) > (b as number | string))
      found.push({ param: low, given: String(a), kind: 'swapped', other: high });
  }
  return found;
}

/** One correction in words: `amountMin “lots” is not an amount; left out`. */
export function correctionMessage(c: Correction): string {
  const what = WHAT[c.param] ?? { is: 'a value the list can read' };
  switch (c.kind) {
    case 'dropped':
      return `${c.param} ${quoted(c.given)} is not ${what.is}; ${what.instead ?? 'left out'}`;
    case 'read':
      return `${c.param} ${quoted(c.given)} read as ${quoted(c.shown)}`;
    case 'repeated':
      return `${c.param} was given more than once; the first, ${quoted(c.given)}, is used`;
    case 'swapped':
      return `${c.param} was after ${c.other}; the two are swapped`;
  }
}

/** The cookie that carries a redirect's corrections to the page it lands on (a minute, that page only). */
export const CORRECTIONS_COOKIE = 'cc-corrected';
const MAX_COOKIE = 1500;

export function encodeCorrections(corrections: Correction[]): string {
  const list = [...corrections];
  let text = encodeURIComponent(JSON.stringify(list));
  while (text.length > MAX_COOKIE && list.length > 1) {
    list.pop();
    text = encodeURIComponent(JSON.stringify(list));
  }
  return text.length > MAX_COOKIE ? '' : text;
}

/** The cookie's corrections; none for anything else (a forged or cut cookie is no notice, never an error). */
export function decodeCorrections(text: string | undefined): Correction[] {
  if (!text) return [];
  try {
    const list: unknown = JSON.parse(decodeURIComponent(text));
    if (!Array.isArray(list)) return [];
    return list.filter(
      (c): c is Correction =>
        typeof c === 'object' &&
        c !== null &&
        typeof c.param === 'string' &&
        typeof c.given === 'string' &&
        ['dropped', 'read', 'repeated', 'swapped'].includes(c.kind) &&
        (c.kind !== 'read' || typeof c.shown === 'string') &&
        (c.kind !== 'swapped' || typeof c.other === 'string'),
    );
  } catch {
    return [];
  }
}
