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

/** Which resource an id names, by its prefix; null when it is not a valid id at all. */
export function kindOfId(value: string): ResourceKind | null {
  if (isCollectionId(value)) return 'collection';
  if (isProviderId(value)) return 'provider';
  return null;
}
