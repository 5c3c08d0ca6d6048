import { COLLECTION_ID, normaliseIdPrefix, PROVIDER_ID } from '@/lib/api/ids';

/**
 * Bulk lookup's first step (contract section 9): everything in a pasted
 * ticket, e-mail thread or spreadsheet column that can name a record —
 * collection and provider ids (bare or inside a dashboard link), e-mail
 * addresses, phone numbers and reference-like tokens — deduplicated, in the
 * order they first appear. Pure: no network, no DOM.
 */
export type FindingKind = 'collection' | 'provider' | 'email' | 'phone' | 'reference';
export type Finding = {
  kind: FindingKind;
  /** What is looked up: the id, the e-mail in lower case, the phone as written, the reference. */
  value: string;
};
export type Extraction = {
  findings: Finding[];
  /** Findings in the whole text; more than `findings.length` when the cap cut the list. */
  total: number;
};

export const MAX_FINDINGS = 500;
/** A paste larger than this (UTF-8 bytes) is refused, not cut. */
export const MAX_PASTE_BYTES = 1024 * 1024;

export const pasteBytes = (text: string) => new TextEncoder().encode(text).byteLength;

/** A character that may sit inside an id: an id ends where these stop. */
const ID_CHAR = 'A-Za-z0-9_\\-';
/** An id, its prefix in any case (`PAY_…` in a ticket is `pay_…`: `idFinding` lowers it, as the search box does). */
const ID = new RegExp(`(?<![${ID_CHAR}])(?:pay|prv)_[${ID_CHAR}]{1,128}(?![${ID_CHAR}])`, 'gi');
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g;
/** A run of digits with the separators people write phones with; judged by `isPhone`. */
const PHONE = /(?<![\w+.\-/])(?:\+|00)?\(?\d[\d\s().-]{5,22}\d(?![\w.\-/]*\w)/g;
/** Capitals (and digits) joined by `-`, `_` or `/`, or capitals followed by digits: INV-2026-00042, ORD-AB12CD34, INV2026001. */
const REFERENCE = /(?<![\w\-/])(?:[A-Z][A-Z0-9]{1,11}(?:[-_/][A-Z0-9]{1,24}){1,4}|[A-Z]{2,8}\d{4,20})(?![\w\-/])/g;
/** A token after a label such as "Reference:", "Order #", "Invoice no." in any case. */
const LABELLED =
  /\b(?:ref(?:erence)?|invoice|order|payment ref(?:erence)?)(?:\s*(?:no\.?|number|#))?\s*[:#]\s*([A-Za-z0-9][A-Za-z0-9_/-]{3,63})/gi;

/** Standards and the like that look like references and never are. */
const NOT_REFERENCES =
  /^(?:UTF|ISO|SHA|RFC|TLS|SSL|HTTP|HTTPS|MD|IPV|COVID|CVE|GMT|UTC|PCI|DSS|AES|RSA|ECMA|IEEE|ASCII|MP|A\d|B\d)(?:[-_/]|\d)/;

type Match = { start: number; end: number; finding: Finding | null };

function isPhone(raw: string): boolean {
  const digits = raw.replace(/\D/g, '');
  const international = raw.startsWith('+') || raw.startsWith('00');
  if (digits.length > 15 || digits.length < (international ? 8 : 10)) return false;
  // Dates and times written with digits: 2026-11-23, 23.11.2026, 11/23/2026 14 05.
  if (/\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}/.test(raw)) return false;
  // Amounts grouped in thousands (1 250 000 000) are not phones.
  if (!international && /^\d{1,3}(?:[ .]\d{3}){3,}$/.test(raw.trim())) return false;
  return true;
}

function isReference(token: string): boolean {
  if (token.length < 6 || !/\d/.test(token) || NOT_REFERENCES.test(token)) return false;
  return true;
}

function collect(text: string): Match[] {
  const matches: Match[] = [];
  const add = (start: number, end: number, finding: Finding | null) => matches.push({ start, end, finding });

  // Links: the ids inside them, and nothing else (a link's digits are not phones, its path not a reference).
  for (const m of text.matchAll(URL_PATTERN)) {
    const url = m[0].replace(/[.,;:!?)\]}>]+$/, '');
    const start = m.index;
    add(start, start + url.length, null);
    for (const id of url.matchAll(ID)) add(start + id.index, start + id.index + id[0].length, idFinding(id[0]));
  }
  for (const m of text.matchAll(EMAIL))
    add(m.index, m.index + m[0].length, { kind: 'email', value: m[0].toLowerCase() });
  for (const m of text.matchAll(ID)) add(m.index, m.index + m[0].length, idFinding(m[0]));
  for (const m of text.matchAll(LABELLED)) {
    const token = m[1]!;
    if (idFinding(token) || !/\d/.test(token)) continue;
    const start = m.index + m[0].length - token.length;
    add(start, start + token.length, { kind: 'reference', value: token });
  }
  for (const m of text.matchAll(REFERENCE)) {
    if (isReference(m[0])) add(m.index, m.index + m[0].length, { kind: 'reference', value: m[0] });
  }
  for (const m of text.matchAll(PHONE)) {
    const raw = m[0].replace(/[\s(]+$/, '');
    if (isPhone(raw)) add(m.index, m.index + raw.length, { kind: 'phone', value: raw.trim() });
  }
  return matches;
}

function idFinding(found: string): Finding | null {
  const id = normaliseIdPrefix(found);
  if (COLLECTION_ID.test(id)) return { kind: 'collection', value: id };
  if (PROVIDER_ID.test(id)) return { kind: 'provider', value: id };
  return null;
}

/** The key two findings are the same by: e-mails in any case, phones by their digits, references in any case. */
function sameKey(f: Finding): string {
  if (f.kind === 'phone') return `phone:${f.value.replace(/\D/g, '').replace(/^00/, '')}`;
  if (f.kind === 'reference') return `reference:${f.value.toUpperCase()}`;
  return `${f.kind}:${f.value}`;
}

export function extractFindings(text: string, max = MAX_FINDINGS): Extraction {
  const matches = collect(text);
  // Earliest first; at one position the longer match wins (a link over the id in it, a labelled
  // reference over a phone-looking tail). A match inside one already taken is dropped, except the
  // ids inside a link, which are what the link is for.
  matches.sort((a, b) => a.start - b.start || b.end - a.end);
  const seen = new Set<string>();
  const findings: Finding[] = [];
  let total = 0;
  let takenUntil = -1;
  let link: { start: number; end: number } | null = null;
  for (const m of matches) {
    const insideLink = link && m.start >= link.start && m.end <= link.end;
    if (m.finding === null) {
      if (m.start >= takenUntil) {
        link = m;
        takenUntil = m.end;
      }
      continue;
    }
    if (m.start < takenUntil && !(insideLink && (m.finding.kind === 'collection' || m.finding.kind === 'provider')))
      continue;
    if (!insideLink) takenUntil = Math.max(takenUntil, m.end);
    const key = sameKey(m.finding);
    if (seen.has(key)) continue;
    seen.add(key);
    total += 1;
    if (findings.length < max) findings.push(m.finding);
  }
  return { findings, total };
}
