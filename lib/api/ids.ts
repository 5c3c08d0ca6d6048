/**
 * Id rules from the contract (section 4): a prefix, then 1–128 characters of
 * `A–Z a–z 0–9 _ -`. Checked before any upstream call, so nothing else (dots,
 * slashes, percent-escapes, control characters) can ever reach an upstream path.
 */
const ID_BODY = '[A-Za-z0-9_-]{1,128}';

export const COLLECTION_ID = new RegExp(`^pay_${ID_BODY}$`);
export const PROVIDER_ID = new RegExp(`^prv_${ID_BODY}$`);
/** A contact's id (contract section 14): its page, `/contacts/{id}`, and the list's `contact` filter. */
export const CONTACT_ID = new RegExp(`^contact_${ID_BODY}$`);

export function isContactId(value: unknown): value is string {
  return typeof value === 'string' && CONTACT_ID.test(value);
}

export type ResourceKind = 'collection' | 'provider';

export function isCollectionId(value: unknown): value is string {
  return typeof value === 'string' && COLLECTION_ID.test(value);
}

export function isProviderId(value: unknown): value is string {
  return typeof value === 'string' && PROVIDER_ID.test(value);
}

export function isResourceId(kind: ResourceKind, value: unknown): value is string {
  return kind === 'collection' ? isCollectionId(value) : isProviderId(value);
}

/**
 * An id as the upstream writes it: the prefix is lower-case in every id it gives, so `PAY_…` or `Prv_…` (a
 * ticket's shouting, a spreadsheet's autocorrect) can only mean that id, and its prefix is lowered; the rest
 * of an id is opaque and keeps its case. Anything else comes back as it was. The "Open by ID" box
 * (open-target.ts) and bulk lookup (lib/lookup/extract.ts) both read ids through it.
 */
export function normaliseIdPrefix(value: string): string {
  return /^(?:pay|prv)_/i.test(value) ? value.slice(0, 4).toLowerCase() + value.slice(4) : value;
}

/** Which resource an id names, by its prefix; null when it is not a valid id at all. */
export function kindOfId(value: string): ResourceKind | null {
  if (isCollectionId(value)) return 'collection';
  if (isProviderId(value)) return 'provider';
  return null;
}
