import 'server-only';
import { isCollectionId } from '@/lib/api/ids';
import {
  emailWords,
  NAME_PREFIX,
  nameSounds,
  nameTokens,
  normaliseEmail,
  phoneDigits,
  referenceKey,
} from '../shared/blind';
import { readPhoneQuery, type PhoneQuery } from '../shared/phones';

/** How a query text is read: the kinds it can match, normalised as the index stores them (contract 7, 7a). */
/** What a query text can match, each kind normalised as the index stored it. */
export type SearchPlan = {
  id?: string;
  email?: string;
  phone?: string;
  last4?: string;
  referencePrefix: string;
  /**
   * A text of one or two characters is no fragment (contract 7a): it matches a reference only whole,
   * never as the start of every reference that begins with it.
   */
  referenceWhole: boolean;
  /**
   * Whether no reference of the account matches (`planOf` asks, one seek of the references' index): a walk
   * then asks its rows for the other kinds only (asked of each row, a reference is read from the table, not
   * the order's covering index: a common first name's page 50 took about five times as long at 1,000,000), and
   * `countMatches` does not count the range again.
   */
  referenceNone?: boolean;
  names: string[];
  /** National significant numbers (`phoneNational`): the typed number read as customers write it. */
  nationals: string[];
  /** The words of an e-mail's local part (`emailLocal`), all of which a match holds. */
  emailWords: string[];
  /**
   * Whether the e-mail's words are looked up as an arm of their own. A text of plain words is also read as
   * a name: when none of its words is an address's own (a word of both is kept as a name token), that arm
   * would only read the names' ranges again (a common first name: 41,806 ids twice), and `planOf` drops it.
   */
  emailArm: boolean;
  /** How a number was read (for a result that found nothing). */
  phoneReading?: PhoneQuery;
  /**
   * Each name word with what forgives it (`namePrefix`, `nameSounds`): the word as the start of a longer
   * one (3 to 8 letters), and its Double Metaphone codes. A match holds every word, in one form or another.
   * `prefixWords` and `soundWords` are the `name` tokens of the account's words those forms forgive, read
   * from its vocabulary (`name_words`) when the search is run (`planOf`); empty until then.
   */
  nameWords: { word: string; prefix: string | null; sounds: string[]; prefixWords: string[]; soundWords: string[] }[];
  /** The text as a part of a reference (`referencePart`): 3 characters or more, anywhere in it. */
  fragment: string | null;
  /**
   * The ids whose reference holds the fragment, when they are few (FRAGMENT_INLINE_AT_MOST): read once by
   * `planOf` and handed to the search's statements, which otherwise each read the trigram index again.
   */
  fragmentIds?: string[];
  /** How many rows the exact kinds match, below `forgiveBelow` (`planOf` counts them; else unknown). */
  exactCount?: number;
  /**
   * A single word's forms but the word itself (`name` tokens), each one's rows counted up to `largeForm`:
   * read with the vocabulary (`withWordForms`) for `largestForm`; absent for more words, empty when its forms
   * were too many or the word itself is a common name.
   */
  formSizes?: Map<string, number>;
};

/** A result's rank (contract 7a): exact kinds, then a name's start, then a name that sounds alike. */
export const RANK = { exact: 0, prefix: 1, sounds: 2 } as const;

/**
 * Whether a reference fragment is one trigram of printable ASCII in lower case (as keys are): what SQLite's
 * trigram index matches exactly, with no key read to check it (`fragmentArm`).
 */
export const oneTrigram = (fragment: string) => /^[\x20-\x40\x5b-\x7e]{3}$/.test(fragment);

/** Whether a plan has matches of more than one rank (its results are ordered by rank first). */
export const isRanked = (plan: SearchPlan) => plan.nameWords.length > 0 || plan.fragment !== null;

/**
 * The most rows a reference fragment adds to a search: a fragment in most references ("inv") is bounded
 * (type more to narrow it); the exact kinds and a reference's start are never cut.
 */
export const FRAGMENT_LIMIT = 10_000;

/** A fragment's trigrams as an FTS5 query: each one quoted, all of them required (`detail=none`). */
export function trigramQuery(fragment: string): string {
  const chars = Array.from(fragment);
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
  return [...grams].map((g) => `"${g.replaceAll('"', '""')}"`).join(' AND ');
}

/** The fewest characters that search as the start of something (a reference, a name): contract 7a. */
export const MIN_FRAGMENT = 3;

/**
 * The range of reference keys a plan matches: those that start with the text (below the text and the
 * highest BMP code point), or the text alone (up to itself).
 */
export const referenceRange = (plan: Pick<SearchPlan, 'referencePrefix' | 'referenceWhole'>) =>
  plan.referenceWhole
    ? ([plan.referencePrefix, '<=', plan.referencePrefix] as const)
    : ([plan.referencePrefix, '<', `${plan.referencePrefix}\uffff`] as const);

/** At most this many words of a kind are looked up: a longer text is not a name or an e-mail. */
export const MAX_WORDS = 8;

/**
 * How a query is read. `countries` are the account's phone countries: a number typed without its country
 * code ("0803 123 4567") is read in each (phones.ts).
 */
/** What a query of digits and a phone number's punctuation looks like. */
export const PHONE_LIKE = /^[+(]*[\d\s().\-/+]+$/;

export function searchPlan(q: string, countries: readonly string[] = []): SearchPlan {
  const text = q.normalize('NFKC').trim();
  const plan: SearchPlan = {
    referencePrefix: referenceKey(text),
    referenceWhole: Array.from(text).length < MIN_FRAGMENT,
    names: [],
    nationals: [],
    emailWords: [],
    emailArm: true,
    nameWords: [],
    fragment: null,
  };
  if (isCollectionId(text)) plan.id = text;
  if (text.includes('@')) {
    const email = normaliseEmail(text);
    if (email) plan.email = email;
    // The local part with the wrong domain: its words, when it reads as words. One with a single letter
    // ("live.3f9a2b1c"), or with more digits than letters ("live.14498369"; a "+tag" not counted), says too
    // little: a search by its words would list every "live.…" address.
    const local = text.slice(0, text.lastIndexOf('@'));
    const chunks = local.split(/[._\-+\d]+/).filter(Boolean);
    const letters = chunks.reduce((n, chunk) => n + Array.from(chunk).length, 0);
    const digits = local.replace(/\+.*$/, '').replace(/\D+/g, '').length;
    if (chunks.every((chunk) => Array.from(chunk).length >= 2) && letters >= digits)
      plan.emailWords = emailWords(text).slice(0, MAX_WORDS);
  } else if (PHONE_LIKE.test(text)) {
    const digits = phoneDigits(text);
    if (digits?.length === 4) plan.last4 = digits;
    else {
      const reading = readPhoneQuery(text, countries);
      if (reading) {
        if (reading.international) plan.phone = reading.international;
        plan.nationals = reading.nationals;
        plan.phoneReading = reading;
      }
    }
  } else {
    plan.names = nameTokens(text).slice(0, MAX_WORDS);
    plan.nameWords = plan.names.map((word) => {
      const length = Array.from(word).length;
      return {
        word,
        prefix: length >= NAME_PREFIX.min && length <= NAME_PREFIX.max ? word : null,
        sounds: nameSounds(word),
        prefixWords: [],
        soundWords: [],
      };
    });
    // "amara.okafor" or "okafor": the words of someone's e-mail address as well as of their name.
    plan.emailWords = emailWords(text).slice(0, MAX_WORDS);
  }
  // Anywhere in a reference: what is not an e-mail or an id, of 3 characters or more.
  if (!plan.email && !plan.id && !plan.referenceWhole && !text.includes('@')) plan.fragment = plan.referencePrefix;
  return plan;
}

/** Whether a query reads as a phone number (not its last four digits): only then are the account's countries read. */
export function readsAsPhone(q: string): boolean {
  const text = q.normalize('NFKC').trim();
  return !text.includes('@') && PHONE_LIKE.test(text) && phoneDigits(text)?.length !== 4;
}
