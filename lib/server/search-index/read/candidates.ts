import 'server-only';
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { AppDatabase } from '../../database/schema';
import { manyNameWords, namePair, type TokenKind } from '../shared/blind';
import type { ReadContext } from './context';
import { SearchPlan, referenceRange } from './plan';

export const tokenIds = (ctx: ReadContext, kind: TokenKind, token: string) =>
  ctx.reads
    .selectFrom('contact_tokens')
    .select('contact_tokens.id')
    .where('contact_tokens.account', '=', ctx.account)
    .where('contact_tokens.kind', '=', kind)
    .where('contact_tokens.token', '=', token);

/**
 * How many rows hold a `name` token: on PostgreSQL the count its triggers keep in the same transaction as
 * the rows (`name_counts`, migration 0023; 'José' at 1,000,000: one row against 41,483 keys of
 * `contact_tokens_pk`), on SQLite its key range counted (fast in process).
 */
export async function nameCount(ctx: ReadContext, token: string): Promise<number> {
  if (ctx.dialect === 'postgres') {
    const row = await ctx.reads
      .selectFrom('name_counts')
      .select('n')
      .where('account', '=', ctx.account)
      .where('token', '=', token)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
  const { n } = await ctx.reads
    .selectFrom(tokenIds(ctx, 'name', token).as('t'))
    .select(sql<number | string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * Ids holding every one of these tokens of a kind, in any order. Each token is one key range of the
 * primary key, read in id order, so the ranges are intersected by merging, never by grouping: at 1,000,000
 * collections a common first and last name (tens of thousands of ids each), grouped and counted in a
 * temporary tree, took two to six times as long as merged. SQLite merges an INTERSECT
 * (wrapped, so it stays one arm of the search's UNION ALL: compound operators associate left);
 * PostgreSQL merge-joins the ranges (its INTERSECT hashes both sides: slower).
 */
export function allTokens(ctx: ReadContext, kind: TokenKind, tokens: string[]) {
  const [first, ...rest] = [...new Set(tokens)];
  if (!rest.length) return tokenIds(ctx, kind, first!);
  if (ctx.dialect === 'sqlite') {
    let intersection = tokenIds(ctx, kind, first!);
    for (const token of rest) intersection = intersection.intersect(tokenIds(ctx, kind, token));
    return ctx.reads.selectFrom(intersection.as('named')).select('named.id');
  }
  type Joined = SelectQueryBuilder<AppDatabase & Record<string, AppDatabase['contact_tokens']>, string, object>;
  let joined = ctx.reads
    .selectFrom('contact_tokens as t0')
    .where('t0.account', '=', ctx.account)
    .where('t0.kind', '=', kind)
    .where('t0.token', '=', first!) as unknown as Joined;
  rest.forEach((token, i) => {
    const t = `t${i + 1}`;
    joined = joined.innerJoin(`contact_tokens as ${t}`, (join) =>
      join
        .onRef(`${t}.id`, '=', 't0.id')
        .on(`${t}.account`, '=', ctx.account)
        .on(`${t}.kind`, '=', kind)
        .on(`${t}.token`, '=', token),
    ) as Joined;
  });
  return (
    joined as unknown as SelectQueryBuilder<AppDatabase & { t0: AppDatabase['contact_tokens'] }, 't0', object>
  ).select('t0.id');
}

/** Pair tokens that cover every one of these words (at least two): the first and second, the third and fourth... */
export function coveringPairs(ctx: ReadContext, words: string[]) {
  const pairs: string[] = [];
  for (let i = 0; i + 1 < words.length; i += 2) pairs.push(namePair(ctx.keys, words[i]!, words[i + 1]!));
  if (words.length % 2) pairs.push(namePair(ctx.keys, words.at(-2)!, words.at(-1)!));
  return pairs;
}

/**
 * Ids whose name holds every one of these words (at least one). Several words are read through their
 * pair tokens (blind.ts) once every record has them: a first and last name is one key range of the
 * records that hold both ("An Amaka": 2,161 entries read instead of 50,066 + 41,806 merged), more words
 * are pairs that cover them all, intersected. Names too long to have pairs carry a marker instead, and
 * are found by it: its few records drive, each one's words looked up by the whole key.
 */
export function nameArms(ctx: ReadContext, words: string[]) {
  const single = (word: string) => ctx.keys.token('name', word);
  if (words.length < 2 || !ctx.namePairsReady) return [allTokens(ctx, 'name', words.map(single))];
  const pairs = coveringPairs(ctx, words);
  type Joined = SelectQueryBuilder<AppDatabase & Record<string, AppDatabase['contact_tokens']>, 'm', object>;
  let long = ctx.reads
    .selectFrom('contact_tokens as m')
    .where('m.account', '=', ctx.account)
    .where('m.kind', '=', 'name2')
    .where('m.token', '=', manyNameWords(ctx.keys)) as unknown as Joined;
  words.forEach((word, i) => {
    const t = `w${i}`;
    // CROSS JOIN keeps the marked records the outer loop in SQLite.
    long = long
      .crossJoin(`contact_tokens as ${t}`)
      .whereRef(`${t}.id`, '=', 'm.id')
      .where(`${t}.account`, '=', ctx.account)
      .where(`${t}.kind`, '=', 'name')
      .where(`${t}.token`, '=', single(word)) as Joined;
  });
  return [
    allTokens(ctx, 'name2', pairs),
    (long as unknown as SelectQueryBuilder<AppDatabase & { m: AppDatabase['contact_tokens'] }, 'm', object>).select(
      'm.id',
    ),
  ];
}

/**
 * Ids whose e-mail's local part or name holds every one of these words: a word of both is kept once, as
 * a `name` token (blind.ts `spokenTokens`). Each word is two key ranges; the words' ids are intersected.
 * With a `gate`, they are read only when it holds.
 */
export function emailWordIds(ctx: ReadContext, words: string[], gate?: Expression<SqlBool>) {
  const either = (word: string) =>
    ctx.reads
      .selectFrom('contact_tokens')
      .select('contact_tokens.id')
      .where('contact_tokens.account', '=', ctx.account)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('contact_tokens.kind', '=', 'emailword'),
            eb('contact_tokens.token', '=', ctx.keys.token('emailword', word)),
          ]),
          eb.and([
            eb('contact_tokens.kind', '=', 'name'),
            eb('contact_tokens.token', '=', ctx.keys.token('name', word)),
          ]),
        ]),
      );
  const [first, ...rest] = [...new Set(words)];
  let intersection = either(first!);
  for (const word of rest) intersection = intersection.intersect(either(word));
  if (!gate) return ctx.reads.selectFrom(intersection.as('local')).select('local.id');
  // Read only when the gate holds (a statement that asks it too): a row of its own, joined first, so no key
  // of the words is read when it does not (a filter on the arm changed how SQLite read its ranges).
  return ctx.reads
    .selectFrom(sql<{ open: number }>`(select 1 as open where ${gate})`.as('gate'))
    .crossJoin(intersection.as('local'))
    .select('local.id');
}

/**
 * Every id a plan matches, one arm per kind, as one UNION ALL: each arm reads its own index. (A plain
 * UNION let SQLite merge the arms in id order, reading the reference arm by primary key, the whole
 * account: a hundred times slower at 1,000,000 rows.) The caller keeps each id once.
 */
export function candidates(ctx: ReadContext, plan: SearchPlan) {
  let union = referenceIds(ctx, plan);
  for (const arm of otherArms(ctx, plan)) union = union.unionAll(arm);
  return union;
}

/** The ids whose reference the plan matches: one range of the references' index. */
export const referenceIds = (ctx: ReadContext, plan: SearchPlan) =>
  ctx.reads
    .selectFrom('collections')
    .select('collections.id')
    .where('collections.account', '=', ctx.account)
    .where('collections.reference_key', '>=', referenceRange(plan)[0])
    // The highest BMP code point closes the range: every key that starts with the prefix sorts below it.
    .where('collections.reference_key', referenceRange(plan)[1], referenceRange(plan)[2]);

/** The plan's exact arms but its reference's (`candidates`). */
export function otherArms(ctx: ReadContext, plan: SearchPlan) {
  const arms = [
    plan.id
      ? ctx.reads
          .selectFrom('collections')
          .select('collections.id')
          .where('collections.account', '=', ctx.account)
          .where('collections.id', '=', plan.id)
      : null,
    plan.email ? tokenIds(ctx, 'email', ctx.keys.token('email', plan.email)) : null,
    plan.phone ? tokenIds(ctx, 'phone', ctx.keys.token('phone', plan.phone)) : null,
    plan.last4 ? tokenIds(ctx, 'last4', ctx.keys.token('last4', plan.last4)) : null,
    ...plan.nationals.map((n) => tokenIds(ctx, 'phone', ctx.keys.token('phone', n))),
    plan.emailWords.length && plan.emailArm ? emailWordIds(ctx, plan.emailWords) : null,
    ...(plan.names.length ? nameArms(ctx, plan.names) : []),
  ];
  return arms.filter((arm) => arm !== null);
}

/**
 * Distinct ids of these arms, at most `n`: each arm stops at `n` rows before they are merged, so a count
 * up to `n` never reads a broad arm whole (PostgreSQL's DISTINCT hashes every row it is given: the 55,024
 * rows of a reference prefix took 41 ms to count to 200).
 */
export function firstIds(
  ctx: ReadContext,
  arms: ReturnType<typeof otherArms> | ReturnType<typeof referenceIds>[],
  n: number,
) {
  // (Every arm selects one column of ids; typed as the references' arm.)
  const [first, ...rest] = arms.map((arm, i) =>
    ctx.reads.selectFrom((arm as ReturnType<typeof referenceIds>).limit(n).as(`a${i}`)).select(`a${i}.id`),
  );
  let union = first!;
  for (const arm of rest) union = union.union(arm);
  return ctx.reads.selectFrom(union.as('firsts')).select('firsts.id').limit(n);
}
