import 'server-only';
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { doubleMetaphone } from 'double-metaphone';
import type { StoredPhone } from './phones';

/**
 * The index's "blind index" (after CipherSweet and ankane/blind_index): a
 * contact's e-mail, phone and names are kept only as keyed HMAC tokens for
 * exact-match search and as AES-256-GCM ciphertext for display. Every key is
 * derived from INDEX_SECRET with HKDF, one per purpose, so a token of one field
 * says nothing about another field's.
 */
export type TokenKind =
  'email' | 'phone' | 'last4' | 'name' | 'name2' | 'emailword' | 'nameprefix' | 'namesound' | 'contact';
const TOKEN_KINDS: TokenKind[] = [
  'email',
  'phone',
  'last4',
  'name',
  'name2',
  'emailword',
  'nameprefix',
  'namesound',
  'contact',
];

/**
 * A contact as the index seals it. `id` (the upstream's `contact_…` id, contract section 14) links a person
 * across records: sealed with the rest and kept as a keyed `contact` token (the contact's page), never
 * readable; a row sealed before contact pages has none.
 */
export type Contact = { firstName: string; lastName: string; email: string; phone: string; id?: string };

export type BlindKeys = {
  token(kind: TokenKind, normalised: string): string;
  seal(contact: Contact, aad: string): string;
  open(sealed: string, aad: string): Contact;
  /**
   * A contact's fingerprint for the history (contract section 14: "the contact changed", never its values):
   * a keyed HMAC of the whole contact, 72 bits, that tells one version from another and nothing else.
   */
  contactDigest(contact: Contact): string;
  /** A value derived from the secret that reveals nothing of it: a changed secret is noticed, not misread. */
  checkValue: string;
  /**
   * A stable, non-reversible name for an account: what identifies it, the operator's INDEX_ACCOUNT label or
   * else its API key, never the address it is reached at (another host, port or sandbox port is the same
   * account, with the same rows).
   */
  accountKey(identity: { apiKey: string; label?: string | null }): string;
  /** The name an index written before that rule gave the account (its address and key): carried over at open. */
  addressedAccountKey(upstream: string, apiKey: string): string;
};

const SALT = Buffer.from('collections-console/index/v1');
const derive = (secret: string, info: string) =>
  Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), SALT, Buffer.from(info, 'utf8'), 32));
const mac = (key: Buffer, value: string) => createHmac('sha256', key).update(value, 'utf8').digest();

/**
 * A memo of at most `size` values, emptied when full (its keys are the values met most: they are made again
 * at once). Process memory only: what a record's write hashes or folds again and again (its name words,
 * their pairs, a phone's last four digits, the contact's id, which the token and the snapshot both need)
 * is made once. Measured on a first sync of 1,000,000 collections: the keyed hashes were 15.8 % of the
 * request thread, nine a record, five of them met before.
 */
function memo<T>(size: number, make: (key: string) => T): (key: string) => T {
  const made = new Map<string, T>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      if (made.size >= size) made.clear();
      value = make(key);
      made.set(key, value);
    }
    return value;
  };
}

/** The kinds whose values recur across records (a name's words and pairs, four digits). */
const RECURRING_KINDS = new Set<TokenKind>(['name', 'name2', 'last4', 'nameprefix', 'namesound', 'emailword']);
const MEMO_SIZE = 32_768;
/**
 * A contact's id, hashed twice a record (its token and the history snapshot), and again for each of its
 * other collections nearby: a memo of its own, so the many ids met once do not empty the names' one.
 */
const CONTACT_MEMO_SIZE = 4_096;

/** What a row's sealed contact is bound to (AES-GCM's additional data): its account's key and its id. */
export const sealAad = (accountKey: string, id: string) => `${accountKey}/${id}`;

/**
 * A seal's 12-byte IVs, drawn from OpenSSL 4 KiB at a time. One call per IV was microseconds, and several
 * times more under a first sync (a few percent of the request thread, the sync's bottleneck on PostgreSQL);
 * drawn in bulk, a hundredth of that. Each IV is still fresh CSPRNG output, used once.
 */
const IV_BYTES = 12;
const IV_POOL_BYTES = IV_BYTES * 341;
let ivPool = Buffer.alloc(0);
let ivAt = 0;
function nextIv(): Buffer {
  if (ivAt + IV_BYTES > ivPool.length) {
    ivPool = randomBytes(IV_POOL_BYTES);
    ivAt = 0;
  }
  return ivPool.subarray(ivAt, (ivAt += IV_BYTES));
}

export function blindKeys(secret: string): BlindKeys {
  if (secret.length < 32) throw new Error('INDEX_SECRET must be at least 32 characters');
  const tokenKeys = Object.fromEntries(TOKEN_KINDS.map((k) => [k, derive(secret, `token:${k}`)])) as Record<
    TokenKind,
    Buffer
  >;
  const sealKey = derive(secret, 'seal:contact');
  const accountKeyKey = derive(secret, 'account');
  const digestKey = derive(secret, 'history:contact');
  // 96 bits of the HMAC: collisions stay out of reach for any account's size, and the index stays small.
  const token = (kind: TokenKind, normalised: string) =>
    mac(tokenKeys[kind], normalised).subarray(0, 12).toString('base64url');
  // Keyed by kind and value: a line break never ends a kind's name.
  const recurring = memo(MEMO_SIZE, (key) => {
    const at = key.indexOf('\n');
    return token(key.slice(0, at) as TokenKind, key.slice(at + 1));
  });
  const contactIds = memo(CONTACT_MEMO_SIZE, (id) => token('contact', id));
  return {
    token(kind, normalised) {
      // What the memo's key would turn into text (an id missing from a record) fails as the HMAC did.
      if (typeof normalised !== 'string') throw new TypeError(`A ${kind} token needs a text`);
      if (kind === 'contact') return contactIds(normalised);
      return RECURRING_KINDS.has(kind) ? recurring(`${kind}\n${normalised}`) : token(kind, normalised);
    },
    seal(contact, aad) {
      const iv = nextIv();
      const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const body = Buffer.concat([cipher.update(JSON.stringify(contact), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(sealed, aad) {
      const raw = Buffer.from(sealed, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', sealKey, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(raw.subarray(12, 28));
      return JSON.parse(
        Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8'),
      ) as Contact;
    },
    contactDigest: (c) =>
      mac(digestKey, JSON.stringify([c.firstName, c.lastName, c.email, c.phone]))
        .subarray(0, 9)
        .toString('base64url'),
    checkValue: mac(derive(secret, 'check'), 'collections-console index key check').subarray(0, 8).toString('hex'),
    accountKey: ({ apiKey, label }) =>
      `acct_${mac(accountKeyKey, label ? `label\n${label}` : `key\n${apiKey}`)
        .subarray(0, 9)
        .toString('base64url')}`,
    addressedAccountKey: (upstream, apiKey) =>
      `acct_${mac(accountKeyKey, `${upstream}\n${apiKey}`).subarray(0, 9).toString('base64url')}`,
  };
}

// Normalisation: the same on the way in (records) and on the way out (queries).

export function normaliseEmail(value: string): string | null {
  const email = value.normalize('NFKC').trim().toLowerCase();
  return /^[^\s@]+@[^\s@]+$/.test(email) ? email : null;
}

/** The phone's digits, country code included ("+234 801-234 5678" → "2348012345678"). */
export function phoneDigits(value: string): string | null {
  const digits = value.normalize('NFKC').replace(/\D/g, '');
  return digits.length >= 4 ? digits : null;
}

/**
 * Name tokens: NFKC, case-folded, accents removed, split on anything but letters and digits. The same
 * array for the same text (`memo`): read it, never change it.
 */
export const nameTokens: (value: string) => readonly string[] = memo(MEMO_SIZE, (value) =>
  Object.freeze(foldedWords(value)),
);

function foldedWords(value: string): string[] {
  const folded = value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .normalize('NFKC')
    .toLowerCase()
    // Letters that do not decompose into a base letter and an accent.
    .replace(/[øœæßłđħı]/g, (ch) => ({ ø: 'o', œ: 'oe', æ: 'ae', ß: 'ss', ł: 'l', đ: 'd', ħ: 'h', ı: 'i' })[ch] ?? ch);
  return [...new Set(folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean))];
}

/**
 * Two name words typed together are one key range instead of two: every pair of a contact's name words,
 * in either order, is a `name2` token of its own. A common first and last name (~50,000 and ~42,000 of
 * 1,000,000 collections) share ~2,000 records: read as one range, not found by merging the two. A name of
 * more words than this has no pairs (n words have n(n-1)/2) but a marker, so a search still finds it by
 * its single words (queries.ts).
 */
export const PAIRED_NAME_WORDS = 8;
/** Never a pair: a pair holds a space, and a name word never does. */
const MANY_NAME_WORDS = '*';

/**
 * The pair token of two name words' `name` tokens, the same in either order. Made from the words' tokens,
 * not their text, so a search pairs the vocabulary's words (name-words.ts: known to it as `name` tokens
 * only) the way it pairs the words typed: a name's start or sound-alike with the other word's forms, each
 * pair one key range (migration 0014 rewrote the pairs of before).
 */
export const tokenPair = (keys: BlindKeys, a: string, b: string) => keys.token('name2', [a, b].sort().join(' '));
/** The pair token of two distinct name words. */
export const namePair = (keys: BlindKeys, a: string, b: string) =>
  tokenPair(keys, keys.token('name', a), keys.token('name', b));
/** The marker of a contact whose name has more than PAIRED_NAME_WORDS words. */
export const manyNameWords = (keys: BlindKeys) => keys.token('name2', MANY_NAME_WORDS);

/**
 * A contact's `name2` tokens: each pair of its name words, or the marker of a long name. `wordTokens`: the
 * words' `name` tokens when the caller has them (one HMAC a word).
 */
export function namePairTokens(
  keys: BlindKeys,
  contact: Pick<Contact, 'firstName' | 'lastName'>,
  wordTokens?: string[],
): string[] {
  const tokens = wordTokens ?? nameTokens(`${contact.firstName} ${contact.lastName}`).map((w) => keys.token('name', w));
  if (tokens.length > PAIRED_NAME_WORDS) return [manyNameWords(keys)];
  return tokens.flatMap((a, i) => tokens.slice(i + 1).map((b) => tokenPair(keys, a, b)));
}

/**
 * The words of an e-mail's local part ("amara.okafor12@…" → amara, okafor): split at `.`, `_`, `-`, `+`
 * and digits, folded like names, two letters or more. A customer who gives the local part alone, or with
 * the wrong domain, is found by all of its words.
 */
export function emailWords(value: string): string[] {
  const at = value.lastIndexOf('@');
  const local = at < 0 ? value : value.slice(0, at);
  return nameTokens(local.replace(/[._\-+\d]+/g, ' ')).filter((w) => w.length >= 2);
}

/** A name word's prefixes that are tokens of their own: from 3 letters to 8, shorter than the word. */
export const NAME_PREFIX = { min: 3, max: 8 } as const;

/** The prefixes of a name word a search by its start finds it by ("abdullahi": abd, abdu, ... abdullah). */
export function namePrefixes(word: string): string[] {
  const letters = Array.from(word);
  const out: string[] = [];
  for (let n = NAME_PREFIX.min; n <= Math.min(letters.length - 1, NAME_PREFIX.max); n++)
    out.push(letters.slice(0, n).join(''));
  return out;
}

/**
 * What a name word sounds like (Double Metaphone, Lawrence Philips' algorithm: its primary and alternate
 * codes): "abdulahi" and "abdullahi" are APTLH, "mohamed" and "muhammad" MHMT. Words of fewer than three
 * letters, and codes of one letter (Zoe: S), would make everyone sound alike: they have none.
 */
export function nameSounds(word: string): string[] {
  if (Array.from(word).length < 3) return [];
  return [...new Set(doubleMetaphone(word))].filter((code) => code.length >= 2);
}

/**
 * The tokens a customer's spoken forms need of each collection: the words of the e-mail's local part that
 * are not words of the name (most addresses are made of the name: "amara.okafor12@…" of Amara Okafor has
 * none). A search by the local part finds each word as either kind (queries.ts), and the page's contacts,
 * opened, say whether it was the address. A name's start and sounds are kept once per distinct word
 * (`wordForms`, table `name_words`), and a number written at home needs none: it is read whole in each of
 * the account's countries (phones.ts) and looked up as the phone it is. An index written before them gets
 * them from a backfill.
 */
export function spokenTokens(keys: BlindKeys, contact: Contact) {
  const named = new Set(nameTokens(`${contact.firstName} ${contact.lastName}`));
  return emailWords(contact.email)
    .filter((word) => !named.has(word))
    .map((word) => ({ kind: 'emailword' as TokenKind, token: keys.token('emailword', word) }));
}

/** The forgiving forms of a name word: each prefix and each sound, as keyed tokens of their own kinds. */
export function wordForms(keys: BlindKeys, word: string): { kind: 'nameprefix' | 'namesound'; token: string }[] {
  return [
    ...namePrefixes(word).map((p) => ({ kind: 'nameprefix' as const, token: keys.token('nameprefix', p) })),
    ...nameSounds(word).map((code) => ({ kind: 'namesound' as const, token: keys.token('namesound', code) })),
  ];
}

/** The countries of these phones (the account's countries, which read a national number). */
export const phoneCountries = (phones: (StoredPhone | null)[]) =>
  new Set(phones.map((p) => p?.country).filter((c): c is string => Boolean(c)));

/** References compare case-insensitively by prefix. */
export function referenceKey(value: string): string {
  return value.normalize('NFKC').toLowerCase();
}

/** Every search token of a contact, by kind (what the index stores instead of the contact). */
export function contactTokens(
  keys: BlindKeys,
  contact: Contact,
  /** Filled with each name word and its `name` token (the vocabulary's writer needs both: one HMAC each). */
  words?: Map<string, string>,
): { kind: TokenKind; token: string }[] {
  const out: { kind: TokenKind; token: string }[] = [];
  const email = normaliseEmail(contact.email);
  if (email) out.push({ kind: 'email', token: keys.token('email', email) });
  const phone = phoneDigits(contact.phone);
  if (phone) {
    out.push({ kind: 'phone', token: keys.token('phone', phone) });
    out.push({ kind: 'last4', token: keys.token('last4', phone.slice(-4)) });
  }
  const named: string[] = [];
  for (const name of nameTokens(`${contact.firstName} ${contact.lastName}`)) {
    const token = keys.token('name', name);
    words?.set(name, token);
    named.push(token);
    out.push({ kind: 'name', token });
  }
  for (const token of namePairTokens(keys, contact, named)) out.push({ kind: 'name2', token });
  out.push(...spokenTokens(keys, contact));
  if (contact.id) out.push({ kind: 'contact', token: keys.token('contact', contact.id) });
  return out;
}
