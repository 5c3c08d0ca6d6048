import 'server-only';

/**
 * The most pairs of two words' forms a search looks up (`formPairs`): far above two real words' forms (a
 * common first and last name: tens each), a bound on the HMACs and parameters of a search.
 */
export const PAIRS_AT_MOST = 2_000;

/** What probing a row costs, in ids hashed (`probedPerRow`, the large form's grouping in `rankSizes`). */
export const PROBE_COST_IN_IDS = 5;

/** A fragment's ids are read once per search (`SearchPlan.fragmentIds`) when at most this many. */
export const FRAGMENT_INLINE_AT_MOST = 1_000;

/** A search walks the rows in order when it matches at least this many (`walkedPage`)... */
export const WALK_FROM = 5_000;
/** ...and its page is expected within this many rows of the walk. */
export const WALK_AT_MOST = 20_000;
/**
 * ...and the walk reads at most a few times the rows it expects (a page's worth of matches spread evenly
 * through the order), never more than this: matches that cluster at the far end of the order (a reference
 * prefix of the oldest records) leave the page unfilled within that reach, and the page is looked up
 * instead. Unbounded, such a walk read most of an account: seconds at 1,000,000 rows, every request of the
 * process waiting behind it; bounded at 40,000 rows alone, a few hundred milliseconds before it gives up.
 */
export const WALK_READS_AT_MOST = 40_000;
export const WALK_READS_PER_EXPECTED = 4;
export const WALK_READS_AT_LEAST = 2_000;
/** A single word's form of at least this many rows is counted by its key range alone (`rankSizes`)... */
export const LARGE_FORM = 2_000;
/** ...when the word has at most this many forms. */
export const LARGE_FORM_CANDIDATES = 64;
/** A page led by a reference prefix (`ledByReference`) takes at most this many matches of the other arms. */
export const LED_OTHERS_AT_MOST = 5_000;

/**
 * The forgiving kinds (a name's start, a sound-alike, a part of a reference) join a search when its exact
 * matches are fewer than this: a customer's common name already lists hundreds of exact matches, and
 * reading every "sounds like" of it (up to a million rows: over a hundred milliseconds) would only add rows after them.
 */
export const FORGIVE_BELOW = 200;

/**
 * The most words a search's forgiving forms read from the vocabulary: far above any prefix's or sound's
 * words in a real account (a 3-letter prefix of 1,000,000 collections' names: tens), a bound on a search.
 */
export const WORD_FORMS_LIMIT = 5_000;

/** The bounds a search is read with (`ReadContext.tuning`): the constants above, which tests set low. */
export type Tuning = {
  /** Where a search starts walking the rows in order (`walkedPage`). */
  walkFrom: number;
  /** Below how many exact matches the forgiving kinds join a search. */
  forgiveBelow: number;
  walkReadsAtMost: number;
  fragmentInlineAtMost: number;
  pairsAtMost: number;
  largeForm: number;
  /** Whether a search's few matches may be walked (`fewMatches`); else they are looked up. */
  walkFew: boolean;
  /**
   * What probing a row costs in ids hashed (`probedPerRow`, the large form's grouping): 0 always probes,
   * Infinity leaves it to the planner (which may hash).
   */
  probeCostInIds: number;
};

export const TUNING: Tuning = {
  walkFrom: WALK_FROM,
  forgiveBelow: FORGIVE_BELOW,
  walkReadsAtMost: WALK_READS_AT_MOST,
  fragmentInlineAtMost: FRAGMENT_INLINE_AT_MOST,
  pairsAtMost: PAIRS_AT_MOST,
  largeForm: LARGE_FORM,
  walkFew: true,
  probeCostInIds: PROBE_COST_IN_IDS,
};
