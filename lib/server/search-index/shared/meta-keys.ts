import 'server-only';

/** Keys of `index_meta` rows that the sync writes and the reads read. */

/** When an account's history began (its first open by a version that keeps it, or the index's rebuild). */
export const HISTORY_SINCE = 'history_since';

/**
 * Whether every row of an account carries its contact id's token (contact pages, section 14): `done`, or
 * `after:<time>` until a full scan that began after that time completes (each row's first write since
 * gives it its token: history.ts's `contactId`).
 */
export const CONTACTS_LINKED = 'contacts_linked';
export const CONTACTS_DONE = 'done';
