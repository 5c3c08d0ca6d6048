import 'server-only';
import { iso, type Change } from './history';
import { CONTACTS_DONE, CONTACTS_LINKED, HISTORY_SINCE } from './store-maintenance';
import { openedIdsOnSqlite } from './store-context';
import { sql, type ExpressionBuilder, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Filters, Sort } from '@/lib/api/list-state';
import { isCollectionId } from '@/lib/api/ids';
import type { CollectionSummary, MatchedField, SearchHit } from '@/lib/api/summary';
import type { ContactHead, ContactTotalsRow } from '@/lib/api/contacts';
import { maskEmail, maskPhone } from '@/lib/format/mask';
import {
  emailWords,
  NAME_PREFIX,
  nameSounds,
  manyNameWords,
  namePair,
  nameTokens,
  tokenPair,
  normaliseEmail,
  phoneDigits,
  referenceKey,
  sealAad,
  type TokenKind,
} from './blind';
import { readPhoneCountries } from './phone-countries';
import { readPhoneQuery, type PhoneQuery } from './phones';
import { createOverview } from './overview';
import { periodsCovering } from './rollups';
import type { AppDatabase } from '../database/schema';
import type { IndexStore } from './store';

/**
 * Reads of the index: search, filtered and sorted pages, option counts. Every
 * query is parameterised (Kysely), scoped to the store's account and to rows
 * still present upstream. What the user typed is matched as a literal: tokens
 * are HMACs, a reference prefix is a range, never a LIKE pattern.
 */
export type { CollectionSummary, MatchedField, SearchHit };
export type IndexPage<T> = { data: T[]; count: number };

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
   * the order's covering index: a common first name's page 50 took 48 ms instead of 10 at 1,000,000), and
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

/**
 * The most pairs of two words' forms a search looks up (`formPairs`): far above two real words' forms (a
 * common first and last name: tens each), a bound on the HMACs and parameters of a search.
 */
const PAIRS_AT_MOST = 2_000;

/**
 * Ends an EXISTS asked of each of a few rows, so that PostgreSQL probes the key once a row. Without it the
 * planner may choose, from its estimates, to hash the subquery's whole key range instead: `rankSizes` hashed
 * the 50,494 rows of 'Okafor' to ask 105 rows whether they held it (35-50 ms, against 1 ms probed), and which
 * way it went changed with each sample of the statistics. An OFFSET keeps PostgreSQL from turning the EXISTS
 * into a hashable ANY; SQLite probes each row either way.
 */
const PROBED_PER_ROW = sql`limit 1 offset 0`;

/** What probing a row costs, in ids hashed (`probedPerRow`, the large form's grouping in `rankSizes`). */
const PROBE_COST_IN_IDS = 5;

/** A fragment's ids are read once per search (`SearchPlan.fragmentIds`) when at most this many. */
const FRAGMENT_INLINE_AT_MOST = 1_000;

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
const referenceRange = (plan: Pick<SearchPlan, 'referencePrefix' | 'referenceWhole'>) =>
  plan.referenceWhole
    ? ([plan.referencePrefix, '<=', plan.referencePrefix] as const)
    : ([plan.referencePrefix, '<', `${plan.referencePrefix}\uffff`] as const);

/** At most this many words of a kind are looked up: a longer text is not a name or an e-mail. */
const MAX_WORDS = 8;

/**
 * How a query is read. `countries` are the account's phone countries: a number typed without its country
 * code ("0803 123 4567") is read in each (phones.ts).
 */
/** What a query of digits and a phone number's punctuation looks like. */
const PHONE_LIKE = /^[+(]*[\d\s().\-/+]+$/;

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

/** The index's tables plus the search's candidate ids: every arm's (`matches`), then each once (`hits`). */
type SearchDb = AppDatabase & { matches: { id: string; rank: number }; hits: { id: string; rank: number } };
type Rows = SelectQueryBuilder<SearchDb, 'collections' | 'hits', object>;
type ListRows = SelectQueryBuilder<SearchDb, 'collections', object>;

const SORT_COLUMN: Record<Sort, ['created_at' | 'amount_value' | 'updated_at', 'asc' | 'desc']> = {
  '-createdAt': ['created_at', 'desc'],
  createdAt: ['created_at', 'asc'],
  '-amount': ['amount_value', 'desc'],
  amount: ['amount_value', 'asc'],
  '-updatedAt': ['updated_at', 'desc'],
  updatedAt: ['updated_at', 'asc'],
};

type DetailRow = AppDatabase['collection_details'];
/** What filters, sorts and a page of results read of the narrow rows. */
const NARROW_COLUMNS = [
  'collections.id',
  'collections.status',
  'collections.amount_value',
  'collections.currency',
  'collections.created_at',
  'collections.updated_at',
] as const;
/** What the export reads of a row. */
export type ExportRow = NarrowRow & Omit<DetailRow, 'account' | 'id' | 'line_item_totals'>;
/** A search walks the rows in order when it matches at least this many (`walkedPage`)... */
const WALK_FROM = 5_000;
/** ...and its page is expected within this many rows of the walk. */
const WALK_AT_MOST = 20_000;
/**
 * ...and the walk reads at most a few times the rows it expects (a page's worth of matches spread evenly
 * through the order), never more than this: matches that cluster at the far end of the order (a reference
 * prefix of the oldest records) leave the page unfilled within that reach, and the page is looked up
 * instead. Unbounded, such a walk read most of an account: seconds at 1,000,000 rows, every request of the
 * process waiting behind it; bounded at 40,000 rows alone, 217 ms before it gave up.
 */
const WALK_READS_AT_MOST = 40_000;
const WALK_READS_PER_EXPECTED = 4;
const WALK_READS_AT_LEAST = 2_000;
/** A single word's form of at least this many rows is counted by its key range alone (`rankSizes`)... */
const LARGE_FORM = 2_000;
/** ...when the word has at most this many forms. */
const LARGE_FORM_CANDIDATES = 64;
/** A page led by a reference prefix (`ledByReference`) takes at most this many matches of the other arms. */
const LED_OTHERS_AT_MOST = 5_000;
type NarrowRow = Pick<
  AppDatabase['collections'],
  'id' | 'status' | 'amount_value' | 'currency' | 'created_at' | 'updated_at'
>;

/**
 * The forgiving kinds (a name's start, a sound-alike, a part of a reference) join a search when its exact
 * matches are fewer than this: a customer's common name already lists hundreds of exact matches, and
 * reading every "sounds like" of it (a million rows: 120-160 ms) would only add rows after them.
 */
const FORGIVE_BELOW = 200;

/**
 * The most words a search's forgiving forms read from the vocabulary: far above any prefix's or sound's
 * words in a real account (a 3-letter prefix of 1,000,000 collections' names: tens), a bound on a search.
 */
const WORD_FORMS_LIMIT = 5_000;

/** `walkFrom`: where a search starts walking the rows in order (`walkedPage`); `forgiveBelow`...; tests set them low. */
export function createQueries(
  store: IndexStore,
  {
    walkFrom = WALK_FROM,
    forgiveBelow = FORGIVE_BELOW,
    walkReadsAtMost = WALK_READS_AT_MOST,
    fragmentInlineAtMost = FRAGMENT_INLINE_AT_MOST,
    pairsAtMost = PAIRS_AT_MOST,
    largeForm = LARGE_FORM,
    walkFew = true,
    probeCostInIds = PROBE_COST_IN_IDS,
  }: {
    walkFrom?: number;
    forgiveBelow?: number;
    walkReadsAtMost?: number;
    fragmentInlineAtMost?: number;
    pairsAtMost?: number;
    largeForm?: number;
    /** Whether a search's few matches may be walked (`fewMatches`); else they are looked up. */
    walkFew?: boolean;
    /**
     * What probing a row costs in ids hashed (`probedPerRow`, the large form's grouping): 0 always probes,
     * Infinity leaves it to the planner (which may hash).
     */
    probeCostInIds?: number;
  } = {},
) {
  // Every read here goes through the reads' connection (PostgreSQL: each statement bounded in time).
  const { reads: db, dialect, account, accountKey, keys } = store;

  const tokenIds = (kind: TokenKind, token: string) =>
    db
      .selectFrom('contact_tokens')
      .select('contact_tokens.id')
      .where('contact_tokens.account', '=', account)
      .where('contact_tokens.kind', '=', kind)
      .where('contact_tokens.token', '=', token);

  /**
   * How many rows hold a `name` token: on PostgreSQL the count its triggers keep in the same transaction as
   * the rows (`name_counts`, migration 0023; 'José' at 1,000,000: one row against 41,483 keys of
   * `contact_tokens_pk`, 10-12 ms), on SQLite its key range counted (~4 ms in process).
   */
  async function nameCount(token: string): Promise<number> {
    if (dialect === 'postgres') {
      const row = await db
        .selectFrom('name_counts')
        .select('n')
        .where('account', '=', account)
        .where('token', '=', token)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    }
    const { n } = await db
      .selectFrom(tokenIds('name', token).as('t'))
      .select(sql<number | string>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /**
   * Ids holding every one of these tokens of a kind, in any order. Each token is one key range of the
   * primary key, read in id order, so the ranges are intersected by merging, never by grouping: at 1,000,000
   * collections a common first and last name (~40,000 ids each) took 45 ms in SQLite and 115 ms in
   * PostgreSQL grouped and counted in a temporary tree; merged, 18 and 20 ms. SQLite merges an INTERSECT
   * (wrapped, so it stays one arm of the search's UNION ALL: compound operators associate left);
   * PostgreSQL merge-joins the ranges (its INTERSECT hashes both sides: 34 ms).
   */
  function allTokens(kind: TokenKind, tokens: string[]) {
    const [first, ...rest] = [...new Set(tokens)];
    if (!rest.length) return tokenIds(kind, first!);
    if (dialect === 'sqlite') {
      let intersection = tokenIds(kind, first!);
      for (const token of rest) intersection = intersection.intersect(tokenIds(kind, token));
      return db.selectFrom(intersection.as('named')).select('named.id');
    }
    type Joined = SelectQueryBuilder<AppDatabase & Record<string, AppDatabase['contact_tokens']>, string, object>;
    let joined = db
      .selectFrom('contact_tokens as t0')
      .where('t0.account', '=', account)
      .where('t0.kind', '=', kind)
      .where('t0.token', '=', first!) as unknown as Joined;
    rest.forEach((token, i) => {
      const t = `t${i + 1}`;
      joined = joined.innerJoin(`contact_tokens as ${t}`, (join) =>
        join
          .onRef(`${t}.id`, '=', 't0.id')
          .on(`${t}.account`, '=', account)
          .on(`${t}.kind`, '=', kind)
          .on(`${t}.token`, '=', token),
      ) as Joined;
    });
    return (
      joined as unknown as SelectQueryBuilder<AppDatabase & { t0: AppDatabase['contact_tokens'] }, 't0', object>
    ).select('t0.id');
  }

  /** Pair tokens that cover every one of these words (at least two): the first and second, the third and fourth... */
  function coveringPairs(words: string[]) {
    const pairs: string[] = [];
    for (let i = 0; i + 1 < words.length; i += 2) pairs.push(namePair(keys, words[i]!, words[i + 1]!));
    if (words.length % 2) pairs.push(namePair(keys, words.at(-2)!, words.at(-1)!));
    return pairs;
  }

  /**
   * Ids whose name holds every one of these words (at least one). Several words are read through their
   * pair tokens (blind.ts) once every record has them: a first and last name is one key range of the
   * records that hold both ("An Amaka": 2,161 entries read instead of 50,066 + 41,806 merged), more words
   * are pairs that cover them all, intersected. Names too long to have pairs carry a marker instead, and
   * are found by it: its few records drive, each one's words looked up by the whole key.
   */
  function nameArms(words: string[]) {
    const single = (word: string) => keys.token('name', word);
    if (words.length < 2 || !store.namePairsReady) return [allTokens('name', words.map(single))];
    const pairs = coveringPairs(words);
    type Joined = SelectQueryBuilder<AppDatabase & Record<string, AppDatabase['contact_tokens']>, 'm', object>;
    let long = db
      .selectFrom('contact_tokens as m')
      .where('m.account', '=', account)
      .where('m.kind', '=', 'name2')
      .where('m.token', '=', manyNameWords(keys)) as unknown as Joined;
    words.forEach((word, i) => {
      const t = `w${i}`;
      // CROSS JOIN keeps the marked records the outer loop in SQLite.
      long = long
        .crossJoin(`contact_tokens as ${t}`)
        .whereRef(`${t}.id`, '=', 'm.id')
        .where(`${t}.account`, '=', account)
        .where(`${t}.kind`, '=', 'name')
        .where(`${t}.token`, '=', single(word)) as Joined;
    });
    return [
      allTokens('name2', pairs),
      (long as unknown as SelectQueryBuilder<AppDatabase & { m: AppDatabase['contact_tokens'] }, 'm', object>).select(
        'm.id',
      ),
    ];
  }

  /**
   * Ids whose e-mail's local part or name holds every one of these words: a word of both is kept once, as
   * a `name` token (blind.ts `spokenTokens`). Each word is two key ranges; the words' ids are intersected.
   */
  function emailWordIds(words: string[]) {
    const either = (word: string) =>
      db
        .selectFrom('contact_tokens')
        .select('contact_tokens.id')
        .where('contact_tokens.account', '=', account)
        .where((eb) =>
          eb.or([
            eb.and([
              eb('contact_tokens.kind', '=', 'emailword'),
              eb('contact_tokens.token', '=', keys.token('emailword', word)),
            ]),
            eb.and([eb('contact_tokens.kind', '=', 'name'), eb('contact_tokens.token', '=', keys.token('name', word))]),
          ]),
        );
    const [first, ...rest] = [...new Set(words)];
    let intersection = either(first!);
    for (const word of rest) intersection = intersection.intersect(either(word));
    return db.selectFrom(intersection.as('local')).select('local.id');
  }

  /**
   * Every id a plan matches, one arm per kind, as one UNION ALL: each arm reads its own index. (A plain
   * UNION let SQLite merge the arms in id order, reading the reference arm by primary key, the whole
   * account: 240 ms at 1,000,000 rows instead of 2 ms.) The caller keeps each id once.
   */
  function candidates(plan: SearchPlan) {
    let union = referenceIds(plan);
    for (const arm of otherArms(plan)) union = union.unionAll(arm);
    return union;
  }

  /** The ids whose reference the plan matches: one range of the references' index. */
  const referenceIds = (plan: SearchPlan) =>
    db
      .selectFrom('collections')
      .select('collections.id')
      .where('collections.account', '=', account)
      .where('collections.reference_key', '>=', referenceRange(plan)[0])
      // The highest BMP code point closes the range: every key that starts with the prefix sorts below it.
      .where('collections.reference_key', referenceRange(plan)[1], referenceRange(plan)[2]);

  /** The plan's exact arms but its reference's (`candidates`). */
  function otherArms(plan: SearchPlan) {
    const arms = [
      plan.id
        ? db
            .selectFrom('collections')
            .select('collections.id')
            .where('collections.account', '=', account)
            .where('collections.id', '=', plan.id)
        : null,
      plan.email ? tokenIds('email', keys.token('email', plan.email)) : null,
      plan.phone ? tokenIds('phone', keys.token('phone', plan.phone)) : null,
      plan.last4 ? tokenIds('last4', keys.token('last4', plan.last4)) : null,
      ...plan.nationals.map((n) => tokenIds('phone', keys.token('phone', n))),
      plan.emailWords.length && plan.emailArm ? emailWordIds(plan.emailWords) : null,
      ...(plan.names.length ? nameArms(plan.names) : []),
    ];
    return arms.filter((arm) => arm !== null);
  }

  /**
   * Distinct ids of these arms, at most `n`: each arm stops at `n` rows before they are merged, so a count
   * up to `n` never reads a broad arm whole (PostgreSQL's DISTINCT hashes every row it is given: the 55,024
   * rows of a reference prefix took 41 ms to count to 200).
   */
  function firstIds(arms: ReturnType<typeof otherArms> | ReturnType<typeof referenceIds>[], n: number) {
    // (Every arm selects one column of ids; typed as the references' arm.)
    const [first, ...rest] = arms.map((arm, i) =>
      db.selectFrom((arm as ReturnType<typeof referenceIds>).limit(n).as(`a${i}`)).select(`a${i}.id`),
    );
    let union = first!;
    for (const arm of rest) union = union.union(arm);
    return db.selectFrom(union.as('firsts')).select('firsts.id').limit(n);
  }

  /**
   * The ids a name word matches, each with its best rank: the word itself, a longer word it starts, a word
   * that sounds alike (the last two as the vocabulary's words, read by their `name` tokens).
   */
  function wordMatches({ word, prefixWords, soundWords }: SearchPlan['nameWords'][number], grouped = true) {
    const ranked = (tokens: string[], rank: number) =>
      db
        .selectFrom('contact_tokens')
        .select(['contact_tokens.id', sql<number>`${sql.lit(rank)}`.as('rank')])
        .where('contact_tokens.account', '=', account)
        .where('contact_tokens.kind', '=', 'name')
        .where('contact_tokens.token', 'in', tokens);
    let union = ranked([keys.token('name', word)], RANK.exact);
    if (prefixWords.length) union = union.unionAll(ranked(prefixWords, RANK.prefix));
    if (soundWords.length) union = union.unionAll(ranked(soundWords, RANK.sounds));
    if (!grouped) return union;
    return db
      .selectFrom(union.as('u'))
      .select(['u.id', sql<number>`min(u.rank)`.as('rank')])
      .groupBy('u.id');
  }

  /** A name word's forms as `name` tokens, each at its rank: the word, the words it starts, those that sound alike. */
  function formsOf({ word, prefixWords, soundWords }: SearchPlan['nameWords'][number]) {
    const forms = new Map<string, number>();
    const add = (tokens: string[], rank: number) => {
      for (const token of tokens) if (!forms.has(token)) forms.set(token, rank);
    };
    add([keys.token('name', word)], RANK.exact);
    add(prefixWords, RANK.prefix);
    add(soundWords, RANK.sounds);
    return forms;
  }

  /**
   * Two words' forms paired (blind.ts `tokenPair`), each pair at the looser form's rank: a record holding a
   * pair holds both words in those forms. Null unless the plan is two words and every record has its pairs.
   */
  function formPairs(plan: SearchPlan): Map<string, number> | null {
    if (plan.nameWords.length !== 2 || !store.namePairsReady) return null;
    if (pairsOf.has(plan)) return pairsOf.get(plan)!;
    const [a, b] = plan.nameWords.map(formsOf) as [Map<string, number>, Map<string, number>];
    // Short words of a large account may have hundreds of forms each: past PAIRS_AT_MOST pairs (each an
    // HMAC and a parameter) the words' sets are merged instead.
    if (a.size * b.size > pairsAtMost) {
      pairsOf.set(plan, null);
      return null;
    }
    const pairs = new Map<string, number>();
    for (const [ta, ra] of a)
      for (const [tb, rb] of b) {
        if (ta === tb) continue; // one word of the name cannot stand for both
        const pair = tokenPair(keys, ta, tb);
        const rank = Math.max(ra, rb);
        if (!((pairs.get(pair) ?? Infinity) <= rank)) pairs.set(pair, rank);
      }
    pairsOf.set(plan, pairs);
    return pairs;
  }
  /** Each plan's pairs, made once (every statement of a search asks). */
  const pairsOf = new WeakMap<SearchPlan, Map<string, number> | null>();

  /**
   * A name word's best rank in a record of the long names (no pairs: the marker), as an expression over the
   * marker's row `m`; null when the record does not hold the word in any form. (Here, unlike pairs, one word
   * of a long name may stand for both words typed: such names are rare, and found rather than missed.)
   */
  function heldRank({ word, prefixWords, soundWords }: SearchPlan['nameWords'][number]) {
    const when = (tokens: string[], rank: number) =>
      sql`when exists (select 1 from contact_tokens as t where t.account = ${account} and t.kind = 'name'
        and t.token in (${sql.join(tokens)}) and t.id = m.id ${PROBED_PER_ROW}) then ${sql.lit(rank)}`;
    const cases = [when([keys.token('name', word)], RANK.exact)];
    if (prefixWords.length) cases.push(when(prefixWords, RANK.prefix));
    if (soundWords.length) cases.push(when(soundWords, RANK.sounds));
    return sql<number | null>`(case ${sql.join(cases, sql` `)} end)`;
  }

  /**
   * Ids whose name holds both words in some form, by their pairs' key ranges (a few hundred lookups: "José
   * Okefor" read two sets of ~50,000 ids, grouped and joined, in ~45 ms a statement at 1,000,000 rows), and
   * the long names' few records by each word's forms.
   */
  function pairedNames(plan: SearchPlan, pairs: Map<string, number>) {
    const byRank = new Map<number, string[]>();
    for (const [pair, rank] of pairs) byRank.set(rank, [...(byRank.get(rank) ?? []), pair]);
    const [r0, r1] = plan.nameWords.map(heldRank) as [ReturnType<typeof heldRank>, ReturnType<typeof heldRank>];
    const loosest = dialect === 'sqlite' ? sql<number>`max(${r0}, ${r1})` : sql<number>`greatest(${r0}, ${r1})`;
    let union = db
      .selectFrom('contact_tokens as m')
      .select(['m.id', loosest.as('rank')])
      .where('m.account', '=', account)
      .where('m.kind', '=', 'name2')
      .where('m.token', '=', manyNameWords(keys))
      .where(sql<boolean>`${r0} is not null and ${r1} is not null`);
    for (const [rank, tokens] of byRank)
      union = union.unionAll(
        db
          .selectFrom('contact_tokens as m')
          .select(['m.id', sql<number>`${sql.lit(rank)}`.as('rank')])
          .where('m.account', '=', account)
          .where('m.kind', '=', 'name2')
          .where('m.token', 'in', tokens),
      );
    return union;
  }

  /** Ids whose name holds every word in some form, ranked by the loosest form any word needed. */
  function forgivingNames(plan: SearchPlan) {
    const words = plan.nameWords;
    const pairs = formPairs(plan);
    if (pairs) return pairedNames(plan, pairs);
    // One word: its forms' ids as they are (the search keeps each id once, at its best rank, anyway: a
    // common word's 50,000 ids were grouped twice).
    if (words.length === 1) return wordMatches(words[0]!, false);
    const sets = words.map((w) => wordMatches(w));
    type Joined = SelectQueryBuilder<Record<string, { id: string; rank: number }>, string, object>;
    let joined = db.selectFrom(sets[0]!.as('w0')) as unknown as Joined;
    sets.slice(1).forEach((set, i) => {
      joined = joined.innerJoin(set.as(`w${i + 1}`), `w${i + 1}.id`, 'w0.id') as unknown as Joined;
    });
    const ranks = sql.join(sets.map((_, i) => sql.ref(`w${i}.rank`)));
    // The loosest word decides: SQLite's max() of several arguments is PostgreSQL's greatest().
    const loosest = dialect === 'sqlite' ? sql<number>`max(${ranks})` : sql<number>`greatest(${ranks})`;
    return joined.select([sql.ref<string>('w0.id').as('id'), loosest.as('rank')]);
  }

  /** Every id a plan matches with its rank (an id several arms match is kept once by the caller, at its best). */
  function rankedCandidates(plan: SearchPlan) {
    const exact = db
      .selectFrom(candidates(plan).as('e'))
      .select(['e.id', sql<number>`${sql.lit(RANK.exact)}`.as('rank')]);
    let ranked = plan.nameWords.length ? exact.unionAll(forgivingNames(plan) as typeof exact) : exact;
    if (plan.fragment !== null)
      ranked = ranked.unionAll(
        (plan.fragmentIds ? givenIds(plan.fragmentIds, RANK.sounds) : fragmentArm(plan.fragment)) as typeof exact,
      );
    return ranked;
  }

  /**
   * Whether the row holds any of these tokens of a kind, each looked up by the whole primary key. `perRow`:
   * a walk that reads few rows of many matches (`probedPerRow`) has PostgreSQL probe the key once a row;
   * else it may hash the tokens' whole key ranges first (what it chooses from its estimates).
   */
  const holds = (
    eb: ExpressionBuilder<SearchDb, 'collections'>,
    kind: TokenKind,
    tokens: string[],
    perRow: boolean,
  ) => {
    const asked = eb
      .selectFrom('contact_tokens as t')
      .select('t.id')
      // The account as a value, not the row's: PostgreSQL then reads the token's key range (a hashed
      // subplan, its ids hashed once); tied to the row's account it scanned every token (480 ms).
      .where('t.account', '=', account)
      .where('t.kind', '=', kind)
      .where((w) => (tokens.length === 1 ? w('t.token', '=', tokens[0]!) : w('t.token', 'in', tokens)))
      .whereRef('t.id', '=', 'collections.id');
    // (PROBED_PER_ROW: an OFFSET keeps PostgreSQL from hashing the subquery.)
    return eb.exists(perRow ? asked.limit(1).offset(0) : asked);
  };

  /**
   * Whether a walk should probe each row's tokens (`holds`) rather than let PostgreSQL hash the matches'
   * ids: when it expects to read few rows against the matches it would hash. A row probed costs ~5-12 µs (a
   * row that does not match asks each of its arms), an id hashed ~1 µs: 'Oka' walked ~140 rows of the
   * created-time index to fill its page, and hashing the 50,494 ids of 'Okafor' for it took 49.5 ms (1.7 ms
   * probed); a common first name's page 50 reads ~12,000 rows of 41,806 matches, where hashing wins.
   */
  const probedPerRow = (expected: number, matches: number) => expected * probeCostInIds <= matches;

  /**
   * Whether a row matches a plan, asked of one row (the arms of `candidates` as a condition): its own
   * reference and id, and each token looked up by the whole primary key.
   */
  function matchesRow(plan: SearchPlan, perRow: boolean) {
    return (eb: ExpressionBuilder<SearchDb, 'collections'>) => {
      const has = (kind: TokenKind, token: string) => holds(eb, kind, [token], perRow);
      const either = plan.referenceNone
        ? []
        : [
            eb.and([
              eb('collections.reference_key', '>=', referenceRange(plan)[0]),
              eb('collections.reference_key', referenceRange(plan)[1], referenceRange(plan)[2]),
            ]),
          ];
      if (plan.id) either.push(eb('collections.id', '=', plan.id));
      if (plan.email) either.push(has('email', keys.token('email', plan.email)));
      if (plan.phone) either.push(has('phone', keys.token('phone', plan.phone)));
      if (plan.last4) either.push(has('last4', keys.token('last4', plan.last4)));
      for (const n of plan.nationals) either.push(has('phone', keys.token('phone', n)));
      if (plan.emailWords.length && plan.emailArm)
        either.push(
          eb.and(
            plan.emailWords.map((w) =>
              eb.or([has('emailword', keys.token('emailword', w)), has('name', keys.token('name', w))]),
            ),
          ),
        );
      const words = plan.names.map((w) => keys.token('name', w));
      if (words.length < 2 || !store.namePairsReady) {
        if (words.length) either.push(eb.and(words.map((t) => has('name', t))));
      } else {
        either.push(eb.and(coveringPairs(plan.names).map((p) => has('name2', p))));
        either.push(eb.and([has('name2', manyNameWords(keys)), ...words.map((t) => has('name', t))]));
      }
      return eb.or(either);
    };
  }

  /**
   * Whether a row's best match is at most this rank: an exact kind (`matchesRow`), or, from the prefix rank
   * on, every name word in a form that forgiving (the word, its start, then its sound).
   */
  function matchesAtMost(plan: SearchPlan, rank: number, perRow: boolean) {
    return (eb: ExpressionBuilder<SearchDb, 'collections'>) => {
      const exact = matchesRow(plan, perRow)(eb);
      if (rank === RANK.exact) return exact;
      const has = (tokens: string[]) => holds(eb, 'name', tokens, perRow);
      const either = [exact];
      if (plan.nameWords.length)
        either.push(
          eb.and(
            plan.nameWords.map(({ word, prefixWords, soundWords }) =>
              eb.or([
                has([keys.token('name', word)]),
                ...(prefixWords.length ? [has(prefixWords)] : []),
                ...(rank >= RANK.sounds && soundWords.length ? [has(soundWords)] : []),
              ]),
            ),
          ),
        );
      if (rank >= RANK.sounds && plan.fragment !== null) either.push(eb.and([containsFragment(plan.fragment)]));
      return eb.or(either);
    };
  }

  /** These ids with a rank, as rows: one parameter (a JSON array in SQLite, an array in PostgreSQL). */
  function givenIds(ids: string[], rank: number) {
    const rows =
      dialect === 'sqlite'
        ? sql<{
            id: string;
            rank: number;
          }>`(select value as id, ${sql.lit(rank)} as rank from json_each(${JSON.stringify(ids)}))`
        : sql<{ id: string; rank: number }>`(select unnest(${ids}::text[]) as id, ${sql.lit(rank)} as rank)`;
    return db.selectFrom(rows.as('given')).select(['given.id', 'given.rank']);
  }

  /**
   * Whether a row's id is one of these (one parameter), asked of each row as a filter: on PostgreSQL an
   * array (`= any`, a hash probe), never a subquery the planner would turn into a join that looks every
   * id up by key (2,074 lookups, 11 ms, where the walk it is for reads 4,000 index entries in 1 ms).
   */
  const oneOf = (ids: string[], column: RawBuilder<unknown>) =>
    dialect === 'sqlite'
      ? sql<boolean>`${column} in (select value from json_each(${JSON.stringify(ids)}))`
      : sql<boolean>`${column} = any(${ids}::text[])`;

  /** Whether a row's reference holds the fragment: asked of the key itself (no pattern, no index needed). */
  const containsFragment = (fragment: string) =>
    dialect === 'sqlite'
      ? sql<boolean>`instr(collections.reference_key, ${fragment}) > 0`
      : sql<boolean>`strpos(collections.reference_key, ${fragment}) > 0`;

  /**
   * Rows whose reference holds the fragment, at most FRAGMENT_LIMIT: read through the trigram index
   * (migration 0011), each candidate checked against its key.
   */
  function fragmentArm(fragment: string) {
    if (dialect === 'sqlite') {
      // Driven by the trigram index (CROSS JOIN keeps it the outer loop), each entry checked against its
      // key, stopping at the limit: a fragment most references hold reads 10,000 entries, not 500,000
      // (asked as "id IN (the index's matches)", SQLite gathered every match first: 600 ms at 1,000,000).
      // A fragment of three ASCII characters is one trigram: the index's match is then the fragment itself
      // (keys are NFKC and lower case, so the index's case folding finds nothing more), and no key is read
      // to check it. '202' (in most references): 10,000 rows of `collections` looked up by key for nothing.
      // The tokenizer drops U+0000, which would make 'ab\0c' a match of 'abc': the index holds none (the sync
      // writes U+FFFD in its place, migration 0024 did so for what it wrote before).
      const driven = oneTrigram(fragment)
        ? sql<{ id: string; rank: number }>`(select r.id as id, ${sql.lit(RANK.sounds)} as rank
        from reference_fragments cross join reference_fragment_rows as r
        where reference_fragments match ${trigramQuery(fragment)} and r.rowid = reference_fragments.rowid
          and r.account = ${account}
        limit ${FRAGMENT_LIMIT})`
        : sql<{ id: string; rank: number }>`(select c.id as id, ${sql.lit(RANK.sounds)} as rank
        from reference_fragments cross join reference_fragment_rows as r cross join collections as c
        where reference_fragments match ${trigramQuery(fragment)} and r.rowid = reference_fragments.rowid
          and r.account = ${account} and c.account = r.account and c.id = r.id
          and instr(c.reference_key, ${fragment}) > 0
        limit ${FRAGMENT_LIMIT})`;
      return db.selectFrom(driven.as('fr')).select(['fr.id', 'fr.rank']);
    }
    const inner = db
      .selectFrom('collections')
      .select(['collections.id', sql<number>`${sql.lit(RANK.sounds)}`.as('rank')])
      .where('collections.account', '=', account)
      .where(sql<boolean>`collections.reference_key like ${`%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`)
      .where(containsFragment(fragment))
      .limit(FRAGMENT_LIMIT);
    return db.selectFrom(inner.as('fr')).select(['fr.id', 'fr.rank']);
  }

  /** Whether a view narrows its rows beyond its search: any of `withFilters`' conditions. */
  const narrows = (f: Filters) =>
    Boolean(
      f.contact ||
      f.change ||
      f.changedSince ||
      f.status?.length ||
      f.currency?.length ||
      f.createdFrom ||
      f.createdTo ||
      f.completedFrom ||
      f.completedTo ||
      f.amountMin !== undefined ||
      f.amountMax !== undefined,
    );

  /** The ids of one contact's collections (its `contact` token: section 14), opened by id or listed. */
  const contactIds = (contactId: string) => tokenIds('contact', keys.token('contact', contactId));

  /**
   * The ids of collections whose status the index saw change so (`change`), or change at all, since a time
   * (`changedSince`): the Overview's Changes, read from the history's own columns (migration 0018).
   */
  const changedIds = (filters: Filters) => {
    let q = db
      .selectFrom('collection_history')
      .select('collection_history.id')
      .where('collection_history.account', '=', account);
    if (filters.change)
      q = q
        .where('collection_history.status_from', '=', filters.change.from)
        .where('collection_history.status_to', '=', filters.change.to);
    if (filters.changedSince) q = q.where('collection_history.seen_at', '>=', iso(filters.changedSince)!);
    return q.distinct();
  };
  const changes = (f: Filters) => Boolean(f.change || f.changedSince);

  function withFilters<Q extends Rows | ListRows>(query: Q, filters: Filters): Q {
    let q = query as Rows;
    if (filters.contact) q = q.where('collections.id', 'in', contactIds(filters.contact));
    if (changes(filters)) q = q.where('collections.id', 'in', changedIds(filters));
    if (filters.status?.length) q = q.where('collections.status', 'in', filters.status);
    if (filters.currency?.length) q = q.where('collections.currency', 'in', filters.currency);
    if (filters.createdFrom) q = q.where('collections.created_at', '>=', `${filters.createdFrom}T00:00:00.000Z`);
    if (filters.createdTo) q = q.where('collections.created_at', '<=', `${filters.createdTo}T23:59:59.999Z`);
    // On the narrow row, read through its own partial index (migration 0008).
    if (filters.completedFrom) q = q.where('collections.completed_at', '>=', `${filters.completedFrom}T00:00:00.000Z`);
    if (filters.completedTo) q = q.where('collections.completed_at', '<=', `${filters.completedTo}T23:59:59.999Z`);
    if (filters.amountMin !== undefined) q = q.where('collections.amount_value', '>=', filters.amountMin);
    if (filters.amountMax !== undefined) q = q.where('collections.amount_value', '<=', filters.amountMax);
    return q as Q;
  }

  /**
   * The rows to page through: the account's collections, or, for a search, its candidates first
   * (a CROSS JOIN keeps them the outer loop in SQLite: a handful of ids looked up by key, never a
   * walk of the whole table), then the filters.
   */
  /** A search's candidates (`matches`: every arm's, ranked), then each once at its best rank (`hits`). */
  const withHits = (plan: SearchPlan) =>
    db
      .with('matches', () => rankedCandidates(plan))
      .with('hits', (cte) =>
        cte
          .selectFrom('matches')
          .select(['matches.id', sql<number>`min(matches.rank)`.as('rank')])
          .groupBy('matches.id'),
      );

  function rows(filters: Filters, plan: SearchPlan | null): Rows | ListRows {
    // One contact's few collections drive (a CROSS JOIN keeps them the outer loop), each looked up by key:
    // every one the index holds, opened by id or listed.
    if (!plan && filters.contact)
      return withFilters(
        db
          .selectFrom(contactIds(filters.contact).as('k'))
          .crossJoin('collections')
          .where('collections.account', '=', account)
          .whereRef('collections.id', '=', 'k.id') as unknown as ListRows,
        { ...filters, contact: undefined },
      );
    // So are the collections of a kind of change: a day's are a few thousand at most.
    if (!plan && changes(filters))
      return withFilters(
        db
          .selectFrom(changedIds(filters).as('k'))
          .crossJoin('collections')
          .where('collections.account', '=', account)
          .whereRef('collections.id', '=', 'k.id') as unknown as ListRows,
        { ...filters, change: undefined, changedSince: undefined },
      );
    if (!plan)
      return withFilters(
        db
          .selectFrom('collections')
          .where('collections.account', '=', account)
          .where('collections.id', 'not in', openedIds()),
        filters,
      );
    const joined = withHits(plan)
      .selectFrom('hits')
      .crossJoin('collections')
      .where('collections.account', '=', account)
      .whereRef('collections.id', '=', 'hits.id');
    return withFilters(joined, filters);
  }

  /**
   * Collections only opened by their id (not integrated): found by a search, never part of a list
   * without one, its filter menus' counts or the overview (which count what the list returns). They are
   * few; read once a query through their partial index (migration 0010; on SQLite named: `openedIdsOnSqlite`).
   */
  const openedIds = () =>
    dialect === 'sqlite'
      ? openedIdsOnSqlite(account)
      : db
          .selectFrom('collection_details')
          .select('collection_details.id')
          .where('collection_details.account', '=', account)
          .where('collection_details.type', '<>', 'integrated');

  /** A view's rows: the list's filters, and its search when it has one (`q`). */
  const viewRows = (filters: Filters, plan: SearchPlan | null) => rows(filters, plan) as ListRows;

  /**
   * How a query is read for this account: in its phone countries, and an e-mail address that is indexed
   * is that address alone (its words find other people's addresses too, which only help when the
   * address as typed finds nothing: the wrong domain, a typo after the @).
   */
  async function planOf(q: string): Promise<SearchPlan> {
    // The account's phone countries only for a query that reads as a phone number (a name, an e-mail or a
    // reference does not need them): one statement fewer for most searches.
    const plan = searchPlan(q, readsAsPhone(q) ? await readPhoneCountries(db, account) : []);
    // The name words' forgiving forms (a few rows of the vocabulary) depend on the words alone: asked beside
    // the first statement below, on a connection of its own on PostgreSQL (each stage a search waits for is a
    // round trip: ~1.5 ms here, more to a server across a network). Read even when the count (or the
    // reference's range) then drops them.
    const forms = withWordForms(plan);
    // Never an unhandled rejection when another statement's failure comes first.
    forms.catch(() => {});
    // What the plan's arms hold, asked in one statement (each was a round trip of its own: ~1 ms apiece on
    // PostgreSQL): how many rows the reference's range holds, whether the e-mail as typed is indexed (then
    // its words, which find other people's addresses too, are not searched), and whether the words are of
    // someone's e-mail address at all.
    const exactEmail =
      plan.email && plan.emailWords.length ? tokenIds('email', keys.token('email', plan.email)).limit(1) : null;
    const ownWords =
      plan.names.length && plan.emailWords.length
        ? db
            .selectFrom('contact_tokens')
            .select('id')
            .where('account', '=', account)
            .where('kind', '=', 'emailword')
            .where(
              'token',
              'in',
              plan.emailWords.map((w) => keys.token('emailword', w)),
            )
            .limit(1)
        : null;
    const held = (await db
      .selectNoFrom((eb) => [
        // The reference's range counted up to `forgiveBelow` (a few hundred keys of its index at most).
        eb
          .selectFrom(referenceIds(plan).limit(forgiveBelow).as('r'))
          .select(sql<number | string>`count(*)`.as('n'))
          .as('reference'),
        ...(exactEmail ? [eb.exists(exactEmail).as('email')] : []),
        ...(ownWords ? [eb.exists(ownWords).as('own')] : []),
      ])
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    const holds = (name: string) => Boolean(Number(held[name] ?? 0));
    const inReference = Number(held.reference ?? 0);
    plan.referenceNone = inReference === 0;
    if (holds('email')) plan.emailWords = [];
    if (plan.names.length && plan.emailWords.length) plan.emailArm = holds('own');
    // The plan of exact matches only: the forgiving kinds go when the exact ones reach the threshold, as when
    // the reference alone does.
    const exactOnly = (): SearchPlan => ({ ...plan, nameWords: [], fragment: null });
    if (inReference >= forgiveBelow) return exactOnly();
    // A reference fragment's few rows (read once here when few, instead of once for the ranks' sizes and once
    // for the page). On PostgreSQL beside the count, on a connection of its own (not before the statement
    // above: for a text that starts many references the fragment is dropped, and its trigram index read,
    // 'INV-2026-1': 41 ms at 1,000,000, only took the cores from the search). SQLite's reads share one
    // thread: there the fragment waits until the count keeps it.
    const fragmentRows = () =>
      fragmentArm(plan.fragment!)
        .clearSelect()
        .select('fr.id')
        .limit(fragmentInlineAtMost + 1)
        .execute();
    const early = plan.fragment !== null && dialect === 'postgres' ? fragmentRows() : null;
    early?.catch(() => {});
    // The exact matches' count, up to the threshold: a common name or reference stops reading at it, and
    // then the forgiving kinds are dropped.
    const [exact, formed] = await Promise.all([
      isRanked(plan)
        ? db
            .selectFrom(firstIds([referenceIds(plan), ...otherArms(plan)], forgiveBelow).as('e'))
            .select(sql<number | string>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        : null,
      forms,
    ]);
    if (exact && Number(exact.n) >= forgiveBelow) return exactOnly();
    if (plan.fragment !== null) {
      const few = await (early ?? fragmentRows());
      if (few.length <= fragmentInlineAtMost) plan.fragmentIds = few.map((r) => r.id);
    }
    return {
      ...plan,
      nameWords: formed.nameWords,
      formSizes: formed.formSizes,
      exactCount: exact ? Number(exact.n) : undefined,
    };
  }

  /**
   * How many rows hold a name word's token, counted up to `cap` (a few keys of the tokens' index at most);
   * on PostgreSQL read from the counts its triggers keep (`name_counts`, migration 0023).
   */
  const namesUpTo = (token: RawBuilder<unknown>, cap: number) =>
    dialect === 'postgres'
      ? sql<number>`least(coalesce((select c.n from name_counts as c where c.account = ${account}
      and c.token = ${token}), 0), ${cap})`
      : sql<number>`(select count(*) from (select 1 from contact_tokens as t where t.account = ${account}
      and t.kind = 'name' and t.token = ${token} limit ${cap}) as capped)`;

  /**
   * The plan with each name word's forgiving forms read from the account's vocabulary: the words it starts
   * and the words that sound like it, as `name` tokens (at most WORD_FORMS_LIMIT in all).
   */
  async function withWordForms(plan: SearchPlan): Promise<SearchPlan> {
    const wanted = plan.nameWords.flatMap(({ prefix, sounds }) => [
      ...(prefix ? [{ kind: 'nameprefix' as const, token: keys.token('nameprefix', prefix) }] : []),
      ...sounds.map((code) => ({ kind: 'namesound' as const, token: keys.token('namesound', code) })),
    ]);
    if (!wanted.length) return plan;
    // A single word's forms are counted here too, each up to `largeForm` (what `largestForm` asks), when
    // they are few: a round trip fewer for a name's start ('Oka'). Not when the word itself is a name of at
    // least `forgiveBelow` rows (counted once, up to that): the exact count then drops the forms ('José').
    const counting = plan.nameWords.length === 1 && Number.isFinite(largeForm);
    const itself = keys.token('name', plan.nameWords[0]!.word);
    const rows: { kind: string; token: string; word: string; n?: number | string | null }[] = await db
      .selectFrom('name_words')
      .select(['kind', 'token', 'word'])
      .$if(counting, (qb) =>
        qb.select(
          sql<number | string | null>`case when count(*) over () > ${LARGE_FORM_CANDIDATES}
            or name_words.word = ${itself}
            or ${namesUpTo(sql.val(itself), forgiveBelow)} >= ${forgiveBelow}
            then null else ${namesUpTo(sql.ref('name_words.word'), largeForm)} end`.as('n'),
        ),
      )
      .where('account', '=', account)
      .where((eb) => eb.or(wanted.map((w) => eb.and([eb('kind', '=', w.kind), eb('token', '=', w.token)]))))
      .limit(WORD_FORMS_LIMIT)
      .execute();
    const formSizes = counting ? new Map<string, number>() : undefined;
    for (const r of rows) if (r.n != null) formSizes?.set(r.word, Number(r.n));
    const words = (kind: TokenKind, tokens: string[]) => {
      const set = new Set(tokens);
      return [...new Set(rows.filter((r) => r.kind === kind && set.has(r.token)).map((r) => r.word))];
    };
    return {
      ...plan,
      formSizes,
      nameWords: plan.nameWords.map((w) => ({
        ...w,
        prefixWords: w.prefix ? words('nameprefix', [keys.token('nameprefix', w.prefix)]) : [],
        soundWords: words(
          'namesound',
          w.sounds.map((code) => keys.token('namesound', code)),
        ),
      })),
    };
  }

  /** Rows in a sort's order from `offset`: ties (equal amounts, equal times) by id, so pages never repeat or skip a row. */
  function inOrder<S extends ListRows>(rows: S, sort: Sort, offset: number, limit: number) {
    const [column, direction] = SORT_COLUMN[sort];
    return rows
      .orderBy(`collections.${column}`, direction)
      .orderBy('collections.id', direction)
      .limit(limit)
      .offset(offset);
  }

  /**
   * A page of rows and how many there are. A search's rows are its candidates, found once: the count rides
   * on the page as a window (a common first and last name, 2,161 of 1,000,000 collections, was found twice,
   * once for the page and once for the count). A list's count reads an index of its own, and its page the
   * first rows of another: one query would read every row of the account.
   */
  async function page(
    query: Rows | ListRows,
    sort: Sort,
    pageNumber: number,
    limit: number,
    searched = false,
    ranked = false,
    /** The count when something cheaper than the rows knows it (`rolledUpCount`). */
    known: Promise<number> | null = null,
  ) {
    const q = query as ListRows;
    const ordered = <S extends ListRows>(rows: S) =>
      inOrder(
        ranked ? ((rows as unknown as Rows).orderBy('hits.rank') as unknown as S) : rows,
        sort,
        (pageNumber - 1) * limit,
        limit,
      );
    const counted = () =>
      known ? known.then((n) => ({ n })) : q.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    let narrow: NarrowRow[];
    let total: { n: number | string };
    if (searched) {
      const windowed = (await ordered(
        q.select([...NARROW_COLUMNS, sql<number>`count(*) over ()`.as('n')]) as ListRows,
      ).execute()) as (NarrowRow & { n: number | string })[];
      narrow = windowed;
      // Past the last page no row carries the count: asked for on its own, as rarely as that happens.
      total = windowed[0] ?? (pageNumber > 1 ? await counted() : { n: 0 });
    } else {
      [narrow, total] = await Promise.all([
        ordered(q.select(NARROW_COLUMNS) as ListRows).execute() as Promise<NarrowRow[]>,
        counted(),
      ]);
    }
    return { narrow, count: Number(total.n) };
  }

  /**
   * How many rows a list without a search holds, from the roll-ups when its filters are theirs: status,
   * currency and one range of whole days, created or completed (rollups.ts `periodsCovering`). The roll-ups
   * count what the list returns (collections opened by id apart), in the same transactions as the rows. At
   * 1,000,000 collections on SQLite, counting the rows took 150 ms warm for the unfiltered list and 80 ms for
   * one status (700,000 rows), and the filter menus' two counts 560 ms warm, 19 s right after a start (the
   * pages from disk: past the reads' bound, a 503); the roll-ups are a few hundred rows at most. Null for
   * any other filter (amounts, both ranges, a contact, a change): the rows are counted.
   */
  function rolledUpCount(filters: Filters): Promise<number> | null {
    const created = Boolean(filters.createdFrom || filters.createdTo);
    const completed = Boolean(filters.completedFrom || filters.completedTo);
    if (
      filters.contact ||
      changes(filters) ||
      filters.amountMin !== undefined ||
      filters.amountMax !== undefined ||
      (created && completed)
    )
      return null;
    const runs = completed
      ? periodsCovering(filters.completedFrom, filters.completedTo)
      : periodsCovering(filters.createdFrom, filters.createdTo);
    if (!runs.length) return Promise.resolve(0);
    let q = db
      .selectFrom('rollups')
      .select(
        sql<number | string>`coalesce(sum(${sql.ref(completed ? 'completed_count' : 'created_count')}), 0)`.as('n'),
      )
      .where('account', '=', account)
      .where((eb) =>
        eb.or(
          runs.map((run) =>
            run.grain === 'a'
              ? eb('grain', '=', 'a')
              : eb.and([eb('grain', '=', run.grain), eb('period', '>=', run.lo), eb('period', '<=', run.hi)]),
          ),
        ),
      );
    if (filters.status?.length) q = q.where('status', 'in', filters.status);
    if (filters.currency?.length) q = q.where('currency', 'in', filters.currency);
    return q.executeTakeFirstOrThrow().then((row) => Number(row.n));
  }

  /** The wide part only for the page's rows, by key. */
  async function withDetails(narrow: NarrowRow[]) {
    const details = narrow.length
      ? await db
          .selectFrom('collection_details')
          .selectAll()
          .where('account', '=', account)
          .where(
            'id',
            'in',
            narrow.map((r) => r.id),
          )
          .execute()
      : [];
    const byId = new Map(details.map((d) => [d.id, d]));
    return narrow.map((r) => ({ row: r, details: byId.get(r.id) }));
  }

  /**
   * A page of a search that matches many rows, with no filters: the rows are walked in the page's order
   * and each asked whether it matches (`matchesRow`), until the page is full, instead of every match
   * being looked up to be sorted. A common first name (41,806 of 1,000,000 collections) matches one row
   * in 24: its first page is ~240 rows walked instead of 41,806 looked up, median 173 -> 17 ms on SQLite
   * and 322 -> 58 ms on PostgreSQL (page 50: 135 -> 69 and 277 -> 47). The count is the candidates',
   * counted without their rows (every token has its row). Null when the matches are few or the page so
   * deep that looking every match up is cheaper (~7 µs a row walked on SQLite): `page` then.
   */
  async function walkedPage(plan: SearchPlan, filters: Filters, pageNumber: number, limit: number) {
    if (narrows(filters)) return null;
    if (isRanked(plan)) return tieredPage(plan, filters, pageNumber, limit);
    // Side by side (the rows indexed: a few roll-up rows, a round trip of its own on PostgreSQL).
    const [{ count, fewOthers }, indexed] = await Promise.all([countMatches(plan), store.indexedCount()]);
    if (count < walkFrom) return count ? fewMatches(plan, filters.sort, pageNumber, limit, count, indexed) : null;
    const offset = (pageNumber - 1) * limit;
    const expected = ((offset + limit) * indexed) / count;
    const found =
      (expected <= WALK_AT_MOST
        ? await walk(matchesRow(plan, probedPerRow(expected, count)), filters.sort, offset, limit, expected)
        : null) ?? (fewOthers ? await ledByReference(plan, filters.sort, offset, limit) : null);
    return found && { narrow: found, count };
  }

  /**
   * How many rows a plan matches (below `walkFrom`, at most that many: the caller then looks the page up and
   * counts it there), and whether its arms but the reference's match few (at most LED_OTHERS_AT_MOST). Its
   * reference's rows are one range of their index, counted there; the other arms' few ids are asked whether
   * the range holds them already. Only when those are many are all the arms'
   * ids merged and counted (a reference prefix of 55,024 rows: 44 ms on PostgreSQL, 15 ms counted in its range).
   */
  async function countMatches(plan: SearchPlan): Promise<{ count: number; fewOthers: boolean }> {
    const arms = otherArms(plan);
    const [lo, op, hi] = referenceRange(plan);
    // One name word and nothing else: its token's rows, each id once.
    const oneWord =
      plan.referenceNone && arms.length === 1 && plan.names.length === 1 ? keys.token('name', plan.names[0]!) : null;
    // PostgreSQL keeps each name token's count (`nameCount`): one row read, not the range counted.
    const counted = oneWord !== null && dialect === 'postgres' ? await nameCount(oneWord) : null;
    // Counted first by their ids alone: a common name's arm stops at the bound without reading a row.
    const others =
      counted !== null
        ? Math.min(counted, LED_OTHERS_AT_MOST + 1)
        : arms.length
          ? Number(
              (
                await db
                  .selectFrom(firstIds(arms, LED_OTHERS_AT_MOST + 1).as('o'))
                  .select(sql<number | string>`count(*)`.as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            )
          : 0;
    if (others <= LED_OTHERS_AT_MOST) {
      // The plan knows when its reference's range is empty (`planOf` counted it): a round trip fewer.
      const inRange = plan.referenceNone
        ? 0
        : (
            await referenceIds(plan)
              .clearSelect()
              .select(sql<number | string>`count(*)`.as('n'))
              .executeTakeFirstOrThrow()
          ).n;
      // At most this many: below the walk's threshold the page is looked up, and counted exactly there
      // (a first and last name's 2,109 rows were read once more here, 16-23 ms on PostgreSQL).
      const atMost = Number(inRange) + others;
      if (atMost < walkFrom || !others) return { count: atMost, fewOthers: true };
      // The other arms' rows whose reference is in the range too are counted once.
      const both = await db
        .selectFrom(firstIds(arms, LED_OTHERS_AT_MOST).as('o'))
        .crossJoin('collections')
        .where('collections.account', '=', account)
        .whereRef('collections.id', '=', 'o.id')
        .where('collections.reference_key', '>=', lo)
        .where('collections.reference_key', op, hi)
        .select(sql<number | string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      return { count: atMost - Number(both.n), fewOthers: true };
    }
    // One name word and nothing else: its token's key range, each id once (a common first name's 41,483
    // ids were grouped to be counted: 8.8 ms against 4 at 1,000,000 on SQLite).
    if (oneWord !== null) return { count: counted ?? (await nameCount(oneWord)), fewOthers: false };
    const { n } = await db
      .with('matches', () => candidates(plan))
      .selectFrom('matches')
      .select(sql<number | string>`count(distinct matches.id)`.as('n'))
      .executeTakeFirstOrThrow();
    return { count: Number(n), fewOthers: false };
  }

  /**
   * A page whose matches are mostly one reference prefix's, in creation order: the prefix's first rows in
   * that order read from the references' index, which holds each row's creation time (migration 0013),
   * with the other arms' few matches beside them, and the page sorted from those. For a prefix of the
   * oldest records (`INV-2026-1`, 55,022 of 1,000,000 collections), which no walk of the newest-first order
   * reaches, every match's time was looked up by its key instead: ~110 ms of 170. Null in the other orders
   * (the caller looks the page up). The caller knows the other arms match few rows (`countMatches`).
   */
  async function ledByReference(plan: SearchPlan, sort: Sort, offset: number, limit: number) {
    const [column, direction] = SORT_COLUMN[sort];
    if (column !== 'created_at') return null;
    const first = referenceIds(plan)
      // Ordered by an expression, not the column: PostgreSQL then cannot walk the creation-time index
      // backwards, betting that the range's rows come early (they come last: 800,009 rows read, 387 ms).
      .orderBy(sql`collections.created_at || ''`, direction)
      .orderBy('collections.id', direction)
      .limit(offset + limit);
    let led = db.selectFrom(first.as('r')).select('r.id');
    for (const arm of otherArms(plan)) led = led.union(arm);
    const joined = db
      .selectFrom(led.as('led'))
      .crossJoin('collections')
      .where('collections.account', '=', account)
      .whereRef('collections.id', '=', 'led.id');
    return (await inOrder(
      joined.select(NARROW_COLUMNS) as unknown as ListRows,
      sort,
      offset,
      limit,
    ).execute()) as NarrowRow[];
  }

  /**
   * Rows in the sort's order that meet a condition, asked of each row: the walk. It reads a few times the
   * rows it expects the page within, `walkReadsAtMost` at most; null when those held too few matches to
   * fill the page (the caller looks the page up instead). The reach is a bound row of the order (the last
   * row it may read, found in the order's own index), so the walk is one read of that index in order that
   * stops as soon as the page is full: read as "the first `reach` rows, then those that match", every row
   * of the reach was asked and sorted again (a common first name's page 50: 40,000 rows, 34 ms at 1,000,000
   * on SQLite, against ~12,000).
   */
  async function walk(
    condition: (eb: ExpressionBuilder<SearchDb, 'collections'>) => ReturnType<ReturnType<typeof matchesRow>>,
    sort: Sort,
    offset: number,
    limit: number,
    /** How many rows of the order the page is expected within (its matches spread evenly). */
    expected: number,
  ): Promise<NarrowRow[] | null> {
    const [column, direction] = SORT_COLUMN[sort];
    const reach = reachOf(expected);
    const bound = await db
      .selectFrom('collections')
      .select([`collections.${column} as value`, 'collections.id'])
      .where('collections.account', '=', account)
      .orderBy(`collections.${column}`, direction)
      .orderBy('collections.id', direction)
      .offset(reach - 1)
      .limit(1)
      .executeTakeFirst();
    let walked = db.selectFrom('collections').where('collections.account', '=', account) as unknown as ListRows;
    // Within the reach: at or before the bound row in the order (an account of fewer rows is read whole).
    if (bound)
      walked = walked.where((eb) =>
        eb(
          eb.refTuple(`collections.${column}`, 'collections.id'),
          direction === 'desc' ? '>=' : '<=',
          eb.tuple(bound.value as never, bound.id),
        ),
      );
    const rows = (await inOrder(
      walked.select(NARROW_COLUMNS).where(condition),
      sort,
      offset,
      limit,
    ).execute()) as NarrowRow[];
    if (rows.length < limit && bound) return null;
    return rows;
  }

  /** A column's values as one JSON array: the aggregate of a group, each store's own function. */
  const jsonArray = (column: string) =>
    dialect === 'sqlite'
      ? sql<unknown>`json_group_array(${sql.ref(column)})`
      : sql<unknown>`json_agg(${sql.ref(column)})`;
  /** A rank's ids as one JSON array, in `rankSizes`' statement (its `sizes` row's rank). */
  const idsOfRank = sql`select ${jsonArray('h.id')} from hits as h where h.rank = sizes.rank`;
  /** A JSON array of ids as read back: text from SQLite, parsed already from PostgreSQL. */
  const idsFrom = (value: unknown): string[] =>
    value == null ? [] : ((typeof value === 'string' ? JSON.parse(value) : value) as string[]);

  /**
   * How many rows each rank of a ranked search holds (each row once, at its best rank). Every match is
   * grouped by id, unless one form of a single word holds most of them (a 3-letter prefix: 'Oka', the
   * 50,494 records of 'Okafor'): that form's key range is counted as it is (each id once already), and only
   * the other matches are grouped, each asked whether the form holds it too. At 1,000,000 on SQLite: 21 ms
   * grouped, ~6 ms so. `withFew`: when the matches are grouped and fewer than `walkFrom` in all, each rank's
   * ids too (`few`, for `fewMatches`).
   */
  async function rankSizes(plan: SearchPlan, withFew: boolean): Promise<{ sizes: number[]; few?: string[][] }> {
    const big = largestForm(plan);
    if (!big) {
      // With the sizes, when they add up to fewer than `walkFrom` (the page then walks for them: `fewMatches`),
      // each rank's ids as one JSON array: one statement where there were two, each planning and finding the
      // matches again, and three values where there were 2,074 rows of two ('José Okafar', 1,000,000
      // collections: the second statement ~4 ms of PostgreSQL's time, its rows ~2 ms of the request thread's).
      const few = Number.isFinite(walkFrom)
        ? sql<unknown>`case when (select sum(s.n) from sizes as s) < ${walkFrom} then (${idsOfRank}) end`
        : sql<unknown>`(${idsOfRank})`;
      const rows = await withHits(plan)
        .with('sizes', (cte) =>
          cte
            .selectFrom('hits')
            .select(['hits.rank', sql<number | string>`count(*)`.as('n')])
            .groupBy('hits.rank'),
        )
        .selectFrom('sizes')
        .select(['sizes.rank', 'sizes.n'])
        .$if(withFew, (qb) => qb.select(few.as('ids')))
        .execute();
      const byRank = (r: number) => rows.find((row) => Number(row.rank) === r);
      const sizes = Object.values(RANK).map((r) => Number(byRank(r)?.n ?? 0));
      const read = rows.length > 0 && rows.every((row) => 'ids' in row && row.ids != null);
      return {
        sizes,
        few: read
          ? Object.values(RANK).map((r) => idsFrom((byRank(r) as { ids?: unknown } | undefined)?.ids))
          : undefined,
      };
    }
    const word = plan.nameWords[0]!;
    const rest: SearchPlan = {
      ...plan,
      nameWords: [
        {
          ...word,
          prefixWords: word.prefixWords.filter((t) => t !== big.token),
          soundWords: word.soundWords.filter((t) => t !== big.token),
        },
      ],
    };
    // The other matches are asked whether the large form holds them too: probed one by one when they are few
    // against its ids (at least `largeForm`), else left to the planner (which may hash the form's ids once).
    const asked =
      (plan.exactCount ?? forgiveBelow) +
      big.others +
      (plan.fragment === null ? 0 : (plan.fragmentIds?.length ?? FRAGMENT_LIMIT));
    const fence = asked * probeCostInIds <= largeForm ? PROBED_PER_ROW : sql``;
    const inBig = sql<number>`(case when exists (select 1 from contact_tokens as b where b.account = ${account}
      and b.kind = 'name' and b.token = ${big.token} and b.id = hits.id ${fence}) then 1 else 0 end)`;
    const [whole, others] = await Promise.all([
      nameCount(big.token),
      withHits(rest)
        .selectFrom('hits')
        .select(['hits.rank', inBig.as('held'), sql<number | string>`count(*)`.as('n')])
        .groupBy(['hits.rank', 'held'])
        .execute(),
    ]);
    const byRank = Object.values(RANK).map(() => 0);
    // The form's own rows at its rank, but those another match ranks higher (or the same: counted there).
    byRank[big.rank]! += whole;
    for (const o of others) {
      const rank = Number(o.rank);
      const n = Number(o.n);
      if (Number(o.held) && rank >= big.rank) continue;
      byRank[rank]! += n;
      if (Number(o.held)) byRank[big.rank]! -= n;
    }
    return { sizes: byRank };
  }

  /**
   * The one form of a single-word search that holds at least `largeForm` rows when every other holds fewer
   * (each counted up to that with the vocabulary): null otherwise, and for more words or too many forms.
   */
  function largestForm(plan: SearchPlan): { token: string; rank: number; others: number } | null {
    if (plan.nameWords.length !== 1 || !Number.isFinite(largeForm)) return null;
    const forms = [...formsOf(plan.nameWords[0]!)].filter(([, rank]) => rank > RANK.exact);
    if (!forms.length || forms.length > LARGE_FORM_CANDIDATES) return null;
    // Counted with the vocabulary (`withWordForms`): not when its rows were too many (the forms were then
    // too many, or nearly: a word under both kinds is a row of each), and all are grouped.
    const known = plan.formSizes;
    if (!forms.every(([token]) => known?.has(token))) return null;
    const sizes = forms.map(([token]) => known!.get(token)!);
    const large = forms.filter((_, i) => sizes[i]! >= largeForm);
    if (large.length !== 1) return null;
    const [token, rank] = large[0]!;
    // The other forms' rows (each below `largeForm`, so counted whole).
    const others = sizes.reduce((sum, n) => (n >= largeForm ? sum : sum + n), 0);
    return { token, rank, others };
  }

  /**
   * A ranked search's page, one rank after the other (exact, a name's start, a sound-alike), each rank's
   * rows walked in the sort's order when they are many, or looked up when few: a common first name keeps
   * the walk's speed although sound-alikes join it. The ranks' sizes are counted once, without rows.
   */
  async function tieredPage(plan: SearchPlan, filters: Filters, pageNumber: number, limit: number) {
    const { sort } = filters;
    const [{ sizes: byRank, few }, indexed] = await Promise.all([
      // The few ids are read whenever the order is walked for them and the plan does not say its matches
      // are many; a deep page (or a page of more than 41 rows of 2,074 matches in 1,000,000) then looks its
      // rows up instead, and the ids (~0.3 ms parsed) go unused: the page's own test needs the count.
      rankSizes(plan, walksFew(sort) && !manyMatches(plan)),
      store.indexedCount(),
    ]);
    const count = byRank.reduce((a, b) => a + b, 0);
    if (count < walkFrom) return count ? fewMatches(plan, sort, pageNumber, limit, count, indexed, few) : null;
    const paired = formPairs(plan) !== null;
    const narrow = await acrossRanks(byRank, pageNumber, limit, (rank, offset, take, size) =>
      rankPart(
        // A rank the words' pairs found is looked up: a walk asks each row for its words one by one, which
        // would also take a name whose one word stands for both (pairs never do).
        paired && rank > RANK.exact
          ? null
          : (expected) => {
              const perRow = probedPerRow(expected, size);
              return walk(
                (eb) =>
                  rank === RANK.exact
                    ? matchesAtMost(plan, rank, perRow)(eb)
                    : eb.and([
                        matchesAtMost(plan, rank, perRow)(eb),
                        eb.not(matchesAtMost(plan, rank - 1, perRow)(eb)),
                      ]),
                sort,
                offset,
                take,
                expected,
              );
            },
        (rows(filters, plan) as Rows).where('hits.rank', '=', rank).select(NARROW_COLUMNS) as ListRows,
        sort,
        offset,
        take,
        ((offset + take) * indexed) / size,
      ),
    );
    return { narrow, count };
  }

  /**
   * A page across a search's ranks in order (exact, a name's start, a sound-alike; each of `sizes` rows): from
   * each rank, the part of the page it holds, read by `read` (its offset within the rank, how many).
   */
  async function acrossRanks(
    sizes: number[],
    pageNumber: number,
    limit: number,
    read: (rank: number, offset: number, take: number, size: number) => Promise<NarrowRow[]>,
  ) {
    let offset = (pageNumber - 1) * limit;
    const narrow: NarrowRow[] = [];
    for (const [rank, size] of sizes.entries()) {
      if (narrow.length >= limit) break;
      if (offset >= size) {
        offset -= size;
        continue;
      }
      const take = Math.min(limit - narrow.length, size - offset);
      narrow.push(...(await read(rank, offset, take, size)));
      offset = 0;
    }
    return narrow;
  }

  /**
   * A rank's part of a page: walked in the order for the rows meeting `condition` when the walk is expected
   * to reach it soon (and does), else the rank's rows (`looked`) looked up and put in order.
   */
  async function rankPart(
    walker: ((expected: number) => Promise<NarrowRow[] | null>) | null,
    looked: ListRows,
    sort: Sort,
    offset: number,
    take: number,
    expected: number,
  ): Promise<NarrowRow[]> {
    const walked = walker && expected <= WALK_AT_MOST ? await walker(expected) : null;
    return walked ?? ((await inOrder(looked, sort, offset, take).execute()) as NarrowRow[]);
  }

  /** How far a walk reads: a few times the rows it expects its page within, `walkReadsAtMost` at most. */
  const reachOf = (expected: number) =>
    Math.min(walkReadsAtMost, Math.max(WALK_READS_AT_LEAST, Math.ceil(expected * WALK_READS_PER_EXPECTED)));

  /**
   * The rows of these ids from `offset` (`take` of them) in the sort's order, found by walking the order's
   * first rows (at most the walk's reach, in one statement: the reach is a limit under the filter, read
   * only as far as the page needs), each row asked whether its id is one of them: null when the reach
   * holds too few (the caller looks them up).
   */
  async function walkFor(ids: string[], sort: Sort, offset: number, take: number, expected: number) {
    const [column, direction] = SORT_COLUMN[sort];
    const reach = reachOf(expected);
    const first = db
      .selectFrom('collections')
      .select(NARROW_COLUMNS)
      .where('collections.account', '=', account)
      .orderBy(`collections.${column}`, direction)
      .orderBy('collections.id', direction)
      .limit(reach);
    const rows = (await db
      .selectFrom(first.as('w'))
      .selectAll('w')
      .where(oneOf(ids, sql.ref('w.id')))
      .orderBy(`w.${column}`, direction)
      .orderBy('w.id', direction)
      .limit(take)
      .offset(offset)
      .execute()) as NarrowRow[];
    return rows.length < take ? null : rows;
  }

  /**
   * Whether a ranked plan already knows it matches at least `walkFrom` rows: its reference fragment's own
   * rows were too many to keep (`fragmentIds`), or its one word's forms, each counted up to `largeForm`,
   * add up to that. Its few ids are then not asked for with the ranks' sizes (`rankSizes`), whose statement
   * would keep every match aside to read them ('202', a fragment of most references: p50 71 -> 78 ms on
   * SQLite at 1,000,000, side by side).
   */
  const manyMatches = (plan: SearchPlan) =>
    (plan.fragment !== null && !plan.fragmentIds) ||
    [...(plan.formSizes?.values() ?? [])].reduce((sum, n) => sum + n, plan.exactCount ?? 0) >= walkFrom;

  /** Whether a search's few matches are walked for in this order (`fewMatches`): creation order only. */
  const walksFew = (sort: Sort) => walkFew && SORT_COLUMN[sort][0] === 'created_at';

  /**
   * A search's page in creation order when its matches are few (below `walkFrom`) but spread wide enough
   * that a walk reaches a page soon (a name that sounds like another: 'José Okafar', 2,074 of 1,000,000; a
   * first and last name): its matches read once, each rank's ids as one JSON array (by `rankSizes` with the
   * ranks' sizes, or here), then each rank's page walked in the order through the created-time index (which
   * holds every column a page shows), each row asked only whether its id is one of them (a hash probe); a
   * rank whose page the walk would not reach soon is looked up by id.
   * Looking every match up to sort them (what `page` does) was 2,074 lookups by key: 17.6 of the page's
   * 23.6 ms on PostgreSQL. Its count is theirs (exact: `countMatches` may only bound it). Null for the other
   * orders and when the walk would read far (`page` then).
   */
  async function fewMatches(
    plan: SearchPlan,
    sort: Sort,
    pageNumber: number,
    limit: number,
    count: number,
    indexed: number,
    /** Each rank's ids when already read (`rankSizes`). */
    known?: string[][],
  ) {
    if (!walksFew(sort) || (pageNumber * limit * indexed) / count > WALK_AT_MOST) return null;
    const byRank = known ?? (await fewHits(plan));
    const narrow = await acrossRanks(
      byRank.map((ids) => ids.length),
      pageNumber,
      limit,
      (rank, offset, take, size) => {
        const given = () => givenIds(byRank[rank]!, rank);
        return rankPart(
          (expected) => walkFor(byRank[rank]!, sort, offset, take, expected),
          db
            .selectFrom(given().as('g'))
            .crossJoin('collections')
            .where('collections.account', '=', account)
            .whereRef('collections.id', '=', 'g.id')
            .select(NARROW_COLUMNS) as unknown as ListRows,
          sort,
          offset,
          take,
          ((offset + take) * indexed) / size,
        );
      },
    );
    return { narrow, count: byRank.reduce((n, ids) => n + ids.length, 0) };
  }

  /**
   * Each rank's ids of a search's few matches, as one JSON array a rank: 'Okafor José''s 2,000 rows of two
   * were ~2 ms of the request thread's parsing. Not bounded: they were fewer than `walkFrom` when counted,
   * milliseconds before, and a sync step writes one page of records at most in between.
   */
  async function fewHits(plan: SearchPlan) {
    const rows = await withHits(plan)
      .selectFrom('hits')
      .select(['hits.rank', jsonArray('hits.id').as('ids')])
      .groupBy('hits.rank')
      .execute();
    return Object.values(RANK).map((r) => idsFrom(rows.find((row) => Number(row.rank) === r)?.ids));
  }

  /** The words of each summary's e-mail local part, as its contact was opened (for `matchedFields`). */
  const localWords = new WeakMap<CollectionSummary, Set<string>>();

  function toSummary({ row, details }: { row: NarrowRow; details?: DetailRow }): CollectionSummary {
    let contact: CollectionSummary['contact'] = { firstName: '', lastName: '', emailMasked: '', phoneMasked: '' };
    let local: Set<string> | null = null;
    try {
      if (details) {
        const opened = keys.open(details.contact_sealed, sealAad(accountKey, row.id));
        local = new Set(emailWords(opened.email));
        contact = {
          firstName: opened.firstName,
          lastName: opened.lastName,
          emailMasked: maskEmail(opened.email),
          phoneMasked: maskPhone(opened.phone),
          ...(opened.id ? { id: opened.id } : {}),
        };
      }
    } catch {
      // A row sealed under another secret cannot be read: shown without a contact, rebuilt by the next scan.
    }
    const summary: CollectionSummary = {
      id: row.id,
      reference: details?.reference ?? '',
      type: details?.type ?? '',
      status: row.status,
      amount: { value: Number(row.amount_value), currency: row.currency },
      contact,
      payable: details?.methods ? { methods: JSON.parse(details.methods) as string[] } : null,
      followUp: details?.follow_up ? (JSON.parse(details.follow_up) as { enabled: boolean; channels: string[] }) : null,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      completedAt: details?.completed_at ?? null,
      lineItemCount: Number(details?.line_item_count ?? 0),
    };
    if (local) localWords.set(summary, local);
    return summary;
  }

  /**
   * Other contact ids under the e-mail of this contact's newest collection: the collections holding that
   * e-mail's token but not this contact's, opened to read their contact ids (at most SAME_EMAIL_READ of
   * them; a row sealed before contact ids were kept says nothing).
   */
  async function sameEmailOthers(contactId: string, details: DetailRow | undefined) {
    if (!details) return [];
    let email: string | null = null;
    try {
      email = normaliseEmail(keys.open(details.contact_sealed, sealAad(accountKey, details.id)).email);
    } catch {
      return [];
    }
    if (!email) return [];
    const ids = await tokenIds('email', keys.token('email', email))
      .where('contact_tokens.id', 'not in', contactIds(contactId))
      .limit(SAME_EMAIL_READ)
      .execute();
    if (!ids.length) return [];
    const rows = await db
      .selectFrom('collection_details')
      .select(['id', 'contact_sealed'])
      .where('account', '=', account)
      .where(
        'id',
        'in',
        ids.map((r) => r.id),
      )
      .execute();
    const others = new Map<string, { id: string; firstName: string; lastName: string; count: number }>();
    for (const r of rows) {
      try {
        const opened = keys.open(r.contact_sealed, sealAad(accountKey, r.id));
        if (!opened.id || opened.id === contactId) continue;
        const o = others.get(opened.id) ?? {
          id: opened.id,
          firstName: opened.firstName,
          lastName: opened.lastName,
          count: 0,
        };
        o.count += 1;
        others.set(opened.id, o);
      } catch {
        // sealed under another secret: not this index's to read
      }
    }
    const found = [...others.values()].sort((a, b) => b.count - a.count || a.id.localeCompare(b.id)).slice(0, 20);
    // Each one's whole count, by its own token (the rows read above were at most SAME_EMAIL_READ).
    for (const other of found)
      other.count = Number(
        (
          await db
            .selectFrom(contactIds(other.id).as('k'))
            .select(sql<number | string>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return found.sort((a, b) => b.count - a.count || a.id.localeCompare(b.id));
  }

  /** The tokens a plan looks for: each kind's with what it says it matched, and each name word's forms. */
  function wantedTokens(plan: SearchPlan) {
    const wanted = new Map<string, MatchedField>();
    if (plan.email) wanted.set(keys.token('email', plan.email), 'email');
    // A national form read whole in one of the account's countries; the number as typed, when it is the
    // same, says more (set after).
    for (const n of plan.nationals) wanted.set(keys.token('phone', n), 'phoneNational');
    if (plan.phone) wanted.set(keys.token('phone', plan.phone), 'phone');
    if (plan.last4) wanted.set(keys.token('last4', plan.last4), 'phoneLast4');
    const nameTokenSet = new Set(plan.names.map((n) => keys.token('name', n)));
    // Each name word's forgiving forms: the words it starts, the words that sound like it.
    const forms = plan.nameWords.map((w) => ({
      exact: keys.token('name', w.word),
      prefix: new Set(w.prefixWords),
      sounds: new Set(w.soundWords),
    }));
    return { wanted, nameTokenSet, forms };
  }

  type WantedTokens = ReturnType<typeof wantedTokens>;

  /**
   * The plan's tokens these rows hold (`wantedTokens`): asked beside the rows' details (one round trip
   * fewer on PostgreSQL), told apart by `matchedFields` once the rows are opened.
   */
  async function matchedTokens(plan: SearchPlan, ids: string[], { wanted, nameTokenSet, forms }: WantedTokens) {
    const formTokens = forms.flatMap((f) => [...f.prefix, ...f.sounds]);
    return ids.length && (wanted.size || nameTokenSet.size)
      ? db
          // The page's rows drive (CROSS JOIN keeps them the outer loop in SQLite), each one's tokens
          // looked up by the whole primary key. Asked by id IN (...) instead, SQLite read every id of
          // the typed name tokens (a common name: ~90,000 keys, 13-18 ms) to find the page's ten, and
          // without the kinds PostgreSQL read every token of the account (5 million rows, 215 ms).
          .selectFrom('collections')
          .crossJoin('contact_tokens as t')
          .select(['t.id', 't.kind', 't.token'])
          .where('collections.account', '=', account)
          .where('collections.id', 'in', ids)
          .whereRef('t.account', '=', 'collections.account')
          .where('t.kind', 'in', [
            ...(plan.email ? ['email'] : []),
            ...(plan.phone || plan.nationals.length ? ['phone'] : []),
            ...(plan.last4 ? ['last4'] : []),
            ...(nameTokenSet.size ? ['name'] : []),
          ])
          .where('t.token', 'in', [...wanted.keys(), ...nameTokenSet, ...formTokens])
          .whereRef('t.id', '=', 'collections.id')
          .execute()
      : [];
  }

  /** Which of a plan's kinds each of these rows matched, from the tokens they hold (`matchedTokens`). */
  function matchedFields(
    plan: SearchPlan,
    summaries: CollectionSummary[],
    found: { id: string; kind: string; token: string }[],
    { wanted, nameTokenSet, forms }: WantedTokens,
  ): Map<string, MatchedField[]> {
    const result = new Map<string, MatchedField[]>();
    for (const row of summaries) {
      const fields = new Set<MatchedField>();
      if (plan.id === row.id) fields.add('id');
      const reference = referenceKey(row.reference);
      if (plan.referenceWhole ? reference === plan.referencePrefix : reference.startsWith(plan.referencePrefix))
        fields.add('reference');
      else if (plan.fragment !== null && reference.includes(plan.fragment)) fields.add('referencePart');
      const mine = found.filter((f) => f.id === row.id);
      for (const f of mine) if (f.kind !== 'name' && wanted.get(f.token)) fields.add(wanted.get(f.token)!);
      // The whole number matched: its national form says nothing more.
      if (fields.has('phone')) fields.delete('phoneNational');
      const names = mine.filter((f) => f.kind === 'name' && nameTokenSet.has(f.token));
      if (nameTokenSet.size && names.length === nameTokenSet.size) fields.add('name');
      else if (forms.length) {
        // Each word in its closest form; the loosest of those says how the name matched.
        const held = (words: Set<string>) => mine.some((f) => f.kind === 'name' && words.has(f.token));
        const ranks = forms.map((f) =>
          held(new Set([f.exact])) ? RANK.exact : held(f.prefix) ? RANK.prefix : held(f.sounds) ? RANK.sounds : null,
        );
        if (ranks.every((r) => r !== null)) {
          const loosest = Math.max(...(ranks as number[]));
          fields.add(loosest === RANK.sounds ? 'nameSounds' : loosest === RANK.prefix ? 'namePrefix' : 'name');
        }
      }
      // The words of an address's local part are told from the name's by the contact, opened for the page
      // (a word of both is kept as a name token only): each says where it was found.
      const local = localWords.get(row);
      if (plan.emailWords.length && local) {
        const named = new Set(nameTokens(`${row.contact.firstName} ${row.contact.lastName}`));
        if (plan.emailWords.every((w) => local.has(w) || named.has(w))) {
          if (plan.emailWords.some((w) => local.has(w))) fields.add('emailLocal');
          if (plan.emailWords.some((w) => !local.has(w))) fields.add('name');
        }
      }
      result.set(row.id, [...fields]);
    }
    return result;
  }

  return {
    /** The overview's figures (contract section 8), from the roll-ups. */
    overview: createOverview(store),

    /** Search by what a customer would quote (contract section 7), within optional filters. */
    async search(q: string, filters: Filters, pageNumber: number, limit: number): Promise<IndexPage<SearchHit>> {
      const plan = await planOf(q);
      const found =
        (await walkedPage(plan, filters, pageNumber, limit)) ??
        (await page(rows(filters, plan), filters.sort, pageNumber, limit, true, isRanked(plan)));
      // The plan's tokens (keyed hashes) made once, for the query and for telling the rows apart.
      const wanted = wantedTokens(plan);
      const [opened, tokens] = await Promise.all([
        withDetails(found.narrow),
        matchedTokens(
          plan,
          found.narrow.map((r) => r.id),
          wanted,
        ),
      ]);
      const summaries = opened.map(toSummary);
      const matched = matchedFields(plan, summaries, tokens, wanted);
      return { data: summaries.map((r) => ({ ...r, matched: matched.get(r.id) ?? [] })), count: found.count };
    },

    /**
     * The index's last copy of one collection and when the upstream last showed it (a record page whose live
     * read failed offers it): null when the index does not hold it.
     */
    async lastSeen(id: string): Promise<{ summary: CollectionSummary; seenAt: string } | null> {
      const row = await db
        .selectFrom('collections')
        .select([...NARROW_COLUMNS, 'collections.seen_at'])
        .where('collections.account', '=', account)
        .where('collections.id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      const [found] = await withDetails([row]);
      return { summary: toSummary(found!), seenAt: row.seen_at };
    },

    /**
     * A collection's history as the sync and live reads saw it (contract section 14), newest first: when each
     * change was first seen and when the version before was last seen. The newest 200.
     */
    async history(id: string): Promise<{ entries: CollectionHistoryEntry[]; since: string | null }> {
      const [rows, since] = await Promise.all([
        db
          .selectFrom('collection_history')
          .select(['seen_at', 'not_seen_before', 'changes'])
          .where('account', '=', account)
          .where('id', '=', id)
          .orderBy('seen_at', 'desc')
          .limit(200)
          .execute(),
        db.selectFrom('index_meta').select('value').where('key', '=', `${HISTORY_SINCE}:${account}`).executeTakeFirst(),
      ]);
      return {
        entries: rows.map((r) => ({
          seenAt: r.seen_at,
          notSeenBefore: r.not_seen_before,
          changes: JSON.parse(r.changes) as Change[],
        })),
        since: since?.value ?? null,
      };
    },

    /**
     * A contact's page (contract section 14) without its list: who it is (its newest collection's contact,
     * masked), its totals per currency (pending, completed, every other status), and the other contact ids
     * the index knows under the same e-mail (a person recreated upstream). Null when the index holds no
     * collection of it.
     */
    async contact(contactId: string): Promise<ContactOverview | null> {
      const mine = () =>
        db
          .selectFrom(contactIds(contactId).as('k'))
          .crossJoin('collections')
          .where('collections.account', '=', account)
          .whereRef('collections.id', '=', 'k.id');
      const [sums, newest, linked] = await Promise.all([
        mine()
          .select([
            'collections.currency',
            'collections.status',
            sql<number | string>`count(*)`.as('n'),
            sql<number | string>`sum(collections.amount_value)`.as('amount'),
          ])
          .groupBy(['collections.currency', 'collections.status'])
          .execute(),
        mine()
          .select(NARROW_COLUMNS)
          .orderBy('collections.created_at', 'desc')
          .orderBy('collections.id', 'desc')
          .limit(1)
          .execute(),
        db
          .selectFrom('index_meta')
          .select('value')
          .where('key', '=', `${CONTACTS_LINKED}:${account}`)
          .executeTakeFirst(),
      ]);
      if (!newest.length) return null;
      const [row] = await withDetails(newest as NarrowRow[]);
      const contact = toSummary(row!).contact;
      const totals = new Map<string, ContactTotals>();
      const byStatus = new Map<string, number>();
      const byCurrency = new Map<string, number>();
      for (const s of sums) {
        byStatus.set(s.status, (byStatus.get(s.status) ?? 0) + Number(s.n));
        byCurrency.set(s.currency, (byCurrency.get(s.currency) ?? 0) + Number(s.n));
        const t = totals.get(s.currency) ?? {
          currency: s.currency,
          pending: { count: 0, amount: 0 },
          completed: { count: 0, amount: 0 },
          other: { count: 0, amount: 0 },
        };
        const bucket = s.status === 'pending' ? t.pending : s.status === 'completed' ? t.completed : t.other;
        bucket.count += Number(s.n);
        bucket.amount += Number(s.amount);
        totals.set(s.currency, t);
      }
      return {
        contact: {
          firstName: contact.firstName,
          lastName: contact.lastName,
          emailMasked: contact.emailMasked,
          phoneMasked: contact.phoneMasked,
        },
        totals: [...totals.values()].sort(
          (a, b) =>
            b.pending.count +
              b.completed.count +
              b.other.count -
              (a.pending.count + a.completed.count + a.other.count) || a.currency.localeCompare(b.currency),
        ),
        sameEmail: await sameEmailOthers(contactId, row!.details),
        linked: linked?.value === CONTACTS_DONE,
        facets: { status: facetsOf(byStatus), currency: facetsOf(byCurrency) },
      };
    },

    /**
     * The Overview's Changes (contract section 14): how many collections the index saw change status since
     * a time, by kind (pending → completed: 41), the most first. A collection that changed so twice counts once.
     */
    async statusChanges(since: string): Promise<{ from: string; to: string; count: number }[]> {
      const rows = await db
        .selectFrom('collection_history')
        .select(['status_from', 'status_to', sql<number | string>`count(distinct collection_history.id)`.as('n')])
        .where('account', '=', account)
        .where('seen_at', '>=', iso(since)!)
        .where('status_from', 'is not', null)
        .groupBy(['status_from', 'status_to'])
        .execute();
      return rows
        .map((r) => ({ from: r.status_from!, to: r.status_to!, count: Number(r.n) }))
        .sort((a, b) => b.count - a.count || a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
    },

    /** A filtered, sorted page of the account's collections. */
    async list(filters: Filters, pageNumber: number, limit: number): Promise<IndexPage<CollectionSummary>> {
      const found = await page(
        rows(filters, null),
        filters.sort,
        pageNumber,
        limit,
        false,
        false,
        rolledUpCount(filters),
      );
      return { data: (await withDetails(found.narrow)).map(toSummary), count: found.count };
    },

    /**
     * Every row a filtered, sorted or searched view holds, in its order, with what the export writes:
     * one query, read row by row on a connection of its own (export/index-export-worker.ts).
     */
    exportQuery(filters: Filters, plan: SearchPlan | null) {
      const [column, direction] = SORT_COLUMN[filters.sort];
      // CROSS JOIN fixes the order in SQLite: the sorted rows drive, each one's details looked up by key.
      // (An inner join let the planner scan the details and sort all of them in a temporary B-tree:
      // measured 97 MB of RSS growth exporting a million rows.)
      const rows = viewRows(filters, plan);
      return (plan && isRanked(plan) ? ((rows as unknown as Rows).orderBy('hits.rank') as unknown as ListRows) : rows)
        .crossJoin('collection_details as d')
        .whereRef('d.account', '=', 'collections.account')
        .whereRef('d.id', '=', 'collections.id')
        .select([
          ...NARROW_COLUMNS,
          'd.reference',
          'd.type',
          'd.completed_at',
          'd.line_item_count',
          'd.contact_sealed',
          'd.methods',
          'd.follow_up',
        ])
        .orderBy(`collections.${column}`, direction)
        .orderBy('collections.id', direction);
    },

    /** How many rows the export of a view writes. */
    exportCountQuery(filters: Filters, plan: SearchPlan | null) {
      return viewRows(filters, plan).select(sql<number>`count(*)`.as('n'));
    },

    /** The account's phone countries (a query is read with them: `searchPlan`). */
    phoneCountries: () => readPhoneCountries(db, account),

    /** How a query is read for this account (a view's export, the empty result's "read as ..."). */
    plan: planOf,

    /** Each status and currency with its count, for the filter menus (whole account). */
    async facets(): Promise<{
      status: { value: string; count: number }[];
      currency: { value: string; count: number }[];
    }> {
      // From the whole-account roll-ups, which count what the list returns (`rolledUpCount`): the rows'
      // two groupings read 1,000,000 index entries each (560 ms warm on SQLite, 19 s after a start).
      const whole = db.selectFrom('rollups').where('account', '=', account).where('grain', '=', 'a');
      const counted = sql<number>`sum(created_count)`;
      const [status, currency] = await Promise.all([
        whole
          .select(['status as value', counted.as('count')])
          .groupBy('status')
          .having(counted, '>', 0)
          .orderBy('count', 'desc')
          .orderBy('value')
          .execute(),
        whole
          .select(['currency as value', counted.as('count')])
          .groupBy('currency')
          .having(counted, '>', 0)
          .orderBy('count', 'desc')
          .orderBy('value')
          .execute(),
      ]);
      const num = (rows: { value: string; count: number }[]) =>
        rows.map((r) => ({ value: r.value, count: Number(r.count) }));
      return { status: num(status), currency: num(currency) };
    },
  };
}

export type IndexQueries = ReturnType<typeof createQueries>;
/** Counts by value as the filter menus take them, the most first. */
const facetsOf = (counts: Map<string, number>) =>
  [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
/** The most collections under a contact's e-mail read to find its other contact ids. */
const SAME_EMAIL_READ = 500;
type ContactTotals = ContactTotalsRow;
export type ContactOverview = ContactHead;
export type CollectionHistoryEntry = { seenAt: string; notSeenBefore: string; changes: Change[] };
