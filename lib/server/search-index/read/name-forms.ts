import 'server-only';
import { sql, type SelectQueryBuilder } from 'kysely';
import { manyNameWords, tokenPair } from '../shared/blind';
import { candidates } from './candidates';
import type { ReadContext } from './context';
import { fragmentArm, givenIds, PROBED_PER_ROW } from './match';
import { RANK, SearchPlan } from './plan';

/**
 * The ids a name word matches, each with its best rank: the word itself, a longer word it starts, a word
 * that sounds alike (the last two as the vocabulary's words, read by their `name` tokens).
 */
export function wordMatches(
  ctx: ReadContext,
  { word, prefixWords, soundWords }: SearchPlan['nameWords'][number],
  grouped = true,
) {
  const ranked = (tokens: string[], rank: number) =>
    ctx.reads
      .selectFrom('contact_tokens')
      .select(['contact_tokens.id', sql<number>`${sql.lit(rank)}`.as('rank')])
      .where('contact_tokens.account', '=', ctx.account)
      .where('contact_tokens.kind', '=', 'name')
      .where('contact_tokens.token', 'in', tokens);
  let union = ranked([ctx.keys.token('name', word)], RANK.exact);
  if (prefixWords.length) union = union.unionAll(ranked(prefixWords, RANK.prefix));
  if (soundWords.length) union = union.unionAll(ranked(soundWords, RANK.sounds));
  if (!grouped) return union;
  return ctx.reads
    .selectFrom(union.as('u'))
    .select(['u.id', sql<number>`min(u.rank)`.as('rank')])
    .groupBy('u.id');
}

/** A name word's forms as `name` tokens, each at its rank: the word, the words it starts, those that sound alike. */
export function formsOf(ctx: ReadContext, { word, prefixWords, soundWords }: SearchPlan['nameWords'][number]) {
  const forms = new Map<string, number>();
  const add = (tokens: string[], rank: number) => {
    for (const token of tokens) if (!forms.has(token)) forms.set(token, rank);
  };
  add([ctx.keys.token('name', word)], RANK.exact);
  add(prefixWords, RANK.prefix);
  add(soundWords, RANK.sounds);
  return forms;
}

/**
 * Two words' forms paired (blind.ts `tokenPair`), each pair at the looser form's rank: a record holding a
 * pair holds both words in those forms. Null unless the plan is two words and every record has its pairs.
 */
export function formPairs(ctx: ReadContext, plan: SearchPlan): Map<string, number> | null {
  if (plan.nameWords.length !== 2 || !ctx.namePairsReady) return null;
  if (pairsOf.has(plan)) return pairsOf.get(plan)!;
  const [a, b] = plan.nameWords.map((a) => formsOf(ctx, a)) as [Map<string, number>, Map<string, number>];
  // Short words of a large account may have hundreds of forms each: past PAIRS_AT_MOST pairs (each an
  // HMAC and a parameter) the words' sets are merged instead.
  if (a.size * b.size > ctx.tuning.pairsAtMost) {
    pairsOf.set(plan, null);
    return null;
  }
  const pairs = new Map<string, number>();
  for (const [ta, ra] of a)
    for (const [tb, rb] of b) {
      if (ta === tb) continue; // one word of the name cannot stand for both
      const pair = tokenPair(ctx.keys, ta, tb);
      const rank = Math.max(ra, rb);
      if (!((pairs.get(pair) ?? Infinity) <= rank)) pairs.set(pair, rank);
    }
  pairsOf.set(plan, pairs);
  return pairs;
}

/** Each plan's pairs, made once (every statement of a search asks). */
export const pairsOf = new WeakMap<SearchPlan, Map<string, number> | null>();

/**
 * A name word's best rank in a record of the long names (no pairs: the marker), as an expression over the
 * marker's row `m`; null when the record does not hold the word in any form. (Here, unlike pairs, one word
 * of a long name may stand for both words typed: such names are rare, and found rather than missed.)
 */
export function heldRank(ctx: ReadContext, { word, prefixWords, soundWords }: SearchPlan['nameWords'][number]) {
  const when = (tokens: string[], rank: number) =>
    sql`when exists (select 1 from contact_tokens as t where t.account = ${ctx.account} and t.kind = 'name'
      and t.token in (${sql.join(tokens)}) and t.id = m.id ${PROBED_PER_ROW}) then ${sql.lit(rank)}`;
  const cases = [when([ctx.keys.token('name', word)], RANK.exact)];
  if (prefixWords.length) cases.push(when(prefixWords, RANK.prefix));
  if (soundWords.length) cases.push(when(soundWords, RANK.sounds));
  return sql<number | null>`(case ${sql.join(cases, sql` `)} end)`;
}

/**
 * Ids whose name holds both words in some form, by their pairs' key ranges (a few hundred lookups: "José
 * Okefor" read two sets of ~50,000 ids, grouped and joined, in ~45 ms a statement at 1,000,000 rows), and
 * the long names' few records by each word's forms.
 */
export function pairedNames(ctx: ReadContext, plan: SearchPlan, pairs: Map<string, number>) {
  const byRank = new Map<number, string[]>();
  for (const [pair, rank] of pairs) byRank.set(rank, [...(byRank.get(rank) ?? []), pair]);
  const [r0, r1] = plan.nameWords.map((a) => heldRank(ctx, a)) as [
    ReturnType<typeof heldRank>,
    ReturnType<typeof heldRank>,
  ];
  const loosest = ctx.dialect === 'sqlite' ? sql<number>`max(${r0}, ${r1})` : sql<number>`greatest(${r0}, ${r1})`;
  let union = ctx.reads
    .selectFrom('contact_tokens as m')
    .select(['m.id', loosest.as('rank')])
    .where('m.account', '=', ctx.account)
    .where('m.kind', '=', 'name2')
    .where('m.token', '=', manyNameWords(ctx.keys))
    .where(sql<boolean>`${r0} is not null and ${r1} is not null`);
  for (const [rank, tokens] of byRank)
    union = union.unionAll(
      ctx.reads
        .selectFrom('contact_tokens as m')
        .select(['m.id', sql<number>`${sql.lit(rank)}`.as('rank')])
        .where('m.account', '=', ctx.account)
        .where('m.kind', '=', 'name2')
        .where('m.token', 'in', tokens),
    );
  return union;
}

/** Ids whose name holds every word in some form, ranked by the loosest form any word needed. */
export function forgivingNames(ctx: ReadContext, plan: SearchPlan) {
  const words = plan.nameWords;
  const pairs = formPairs(ctx, plan);
  if (pairs) return pairedNames(ctx, plan, pairs);
  // One word: its forms' ids as they are (the search keeps each id once, at its best rank, anyway: a
  // common word's 50,000 ids were grouped twice).
  if (words.length === 1) return wordMatches(ctx, words[0]!, false);
  const sets = words.map((w) => wordMatches(ctx, w));
  type Joined = SelectQueryBuilder<Record<string, { id: string; rank: number }>, string, object>;
  let joined = ctx.reads.selectFrom(sets[0]!.as('w0')) as unknown as Joined;
  sets.slice(1).forEach((set, i) => {
    joined = joined.innerJoin(set.as(`w${i + 1}`), `w${i + 1}.id`, 'w0.id') as unknown as Joined;
  });
  const ranks = sql.join(sets.map((_, i) => sql.ref(`w${i}.rank`)));
  // The loosest word decides: SQLite's max() of several arguments is PostgreSQL's greatest().
  const loosest = ctx.dialect === 'sqlite' ? sql<number>`max(${ranks})` : sql<number>`greatest(${ranks})`;
  return joined.select([sql.ref<string>('w0.id').as('id'), loosest.as('rank')]);
}

/** Every id a plan matches with its rank (an id several arms match is kept once by the caller, at its best). */
export function rankedCandidates(ctx: ReadContext, plan: SearchPlan) {
  const exact = ctx.reads
    .selectFrom(candidates(ctx, plan).as('e'))
    .select(['e.id', sql<number>`${sql.lit(RANK.exact)}`.as('rank')]);
  let ranked = plan.nameWords.length ? exact.unionAll(forgivingNames(ctx, plan) as typeof exact) : exact;
  if (plan.fragment !== null)
    ranked = ranked.unionAll(
      (plan.fragmentIds
        ? givenIds(ctx, plan.fragmentIds, RANK.sounds)
        : fragmentArm(ctx, plan.fragment)) as typeof exact,
    );
  return ranked;
}
