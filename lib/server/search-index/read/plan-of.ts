import 'server-only';
import { sql, type RawBuilder } from 'kysely';
import { type TokenKind } from '../shared/blind';
import { readPhoneCountries } from '../shared/phone-countries';
import { firstIds, otherArms, referenceIds, tokenIds } from './candidates';
import type { ReadContext } from './context';
import { fragmentArm } from './match';
import { isRanked, readsAsPhone, SearchPlan, searchPlan } from './plan';
import { LARGE_FORM_CANDIDATES, WORD_FORMS_LIMIT } from './tuning';

/**
 * How a query is read for this account: in its phone countries, and an e-mail address that is indexed
 * is that address alone (its words find other people's addresses too, which only help when the
 * address as typed finds nothing: the wrong domain, a typo after the @).
 */
export async function planOf(ctx: ReadContext, q: string): Promise<SearchPlan> {
  // The account's phone countries only for a query that reads as a phone number (a name, an e-mail or a
  // reference does not need them): one statement fewer for most searches.
  const plan = searchPlan(q, readsAsPhone(q) ? await readPhoneCountries(ctx.reads, ctx.account) : []);
  // The name words' forgiving forms (a few rows of the vocabulary) depend on the words alone: asked beside
  // the first statement below, on a connection of its own on PostgreSQL (each stage a search waits for is a
  // round trip: ~1.5 ms here, more to a server across a network). Read even when the count (or the
  // reference's range) then drops them.
  const forms = withWordForms(ctx, plan);
  // Never an unhandled rejection when another statement's failure comes first.
  forms.catch(() => {});
  // What the plan's arms hold, asked in one statement (each was a round trip of its own: ~1 ms apiece on
  // PostgreSQL): how many rows the reference's range holds, whether the e-mail as typed is indexed (then
  // its words, which find other people's addresses too, are not searched), and whether the words are of
  // someone's e-mail address at all.
  const exactEmail =
    plan.email && plan.emailWords.length ? tokenIds(ctx, 'email', ctx.keys.token('email', plan.email)).limit(1) : null;
  const ownWords =
    plan.names.length && plan.emailWords.length
      ? ctx.reads
          .selectFrom('contact_tokens')
          .select('id')
          .where('account', '=', ctx.account)
          .where('kind', '=', 'emailword')
          .where(
            'token',
            'in',
            plan.emailWords.map((w) => ctx.keys.token('emailword', w)),
          )
          .limit(1)
      : null;
  const held = (await ctx.reads
    .selectNoFrom((eb) => [
      // The reference's range counted up to `forgiveBelow` (a few hundred keys of its index at most).
      eb
        .selectFrom(referenceIds(ctx, plan).limit(ctx.tuning.forgiveBelow).as('r'))
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
  if (inReference >= ctx.tuning.forgiveBelow) return exactOnly();
  // A reference fragment's few rows (read once here when few, instead of once for the ranks' sizes and once
  // for the page). On PostgreSQL beside the count, on a connection of its own (not before the statement
  // above: for a text that starts many references the fragment is dropped, and its trigram index read,
  // 'INV-2026-1': 41 ms at 1,000,000, only took the cores from the search). SQLite's reads share one
  // thread: there the fragment waits until the count keeps it.
  const fragmentRows = () =>
    fragmentArm(ctx, plan.fragment!)
      .clearSelect()
      .select('fr.id')
      .limit(ctx.tuning.fragmentInlineAtMost + 1)
      .execute();
  const early = plan.fragment !== null && ctx.dialect === 'postgres' ? fragmentRows() : null;
  early?.catch(() => {});
  // The exact matches' count, up to the threshold: a common name or reference stops reading at it, and
  // then the forgiving kinds are dropped.
  const [exact, formed] = await Promise.all([
    isRanked(plan)
      ? ctx.reads
          .selectFrom(
            firstIds(ctx, [referenceIds(ctx, plan), ...otherArms(ctx, plan)], ctx.tuning.forgiveBelow).as('e'),
          )
          .select(sql<number | string>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
      : null,
    forms,
  ]);
  if (exact && Number(exact.n) >= ctx.tuning.forgiveBelow) return exactOnly();
  if (plan.fragment !== null) {
    const few = await (early ?? fragmentRows());
    if (few.length <= ctx.tuning.fragmentInlineAtMost) plan.fragmentIds = few.map((r) => r.id);
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
export const namesUpTo = (ctx: ReadContext, token: RawBuilder<unknown>, cap: number) =>
  ctx.dialect === 'postgres'
    ? sql<number>`least(coalesce((select c.n from name_counts as c where c.account = ${ctx.account}
    and c.token = ${token}), 0), ${cap})`
    : sql<number>`(select count(*) from (select 1 from contact_tokens as t where t.account = ${ctx.account}
    and t.kind = 'name' and t.token = ${token} limit ${cap}) as capped)`;

/**
 * The plan with each name word's forgiving forms read from the account's vocabulary: the words it starts
 * and the words that sound like it, as `name` tokens (at most WORD_FORMS_LIMIT in all).
 */
export async function withWordForms(ctx: ReadContext, plan: SearchPlan): Promise<SearchPlan> {
  const wanted = plan.nameWords.flatMap(({ prefix, sounds }) => [
    ...(prefix ? [{ kind: 'nameprefix' as const, token: ctx.keys.token('nameprefix', prefix) }] : []),
    ...sounds.map((code) => ({ kind: 'namesound' as const, token: ctx.keys.token('namesound', code) })),
  ]);
  if (!wanted.length) return plan;
  // A single word's forms are counted here too, each up to `largeForm` (what `largestForm` asks), when
  // they are few: a round trip fewer for a name's start ('Oka'). Not when the word itself is a name of at
  // least `forgiveBelow` rows (counted once, up to that): the exact count then drops the forms ('José').
  const counting = plan.nameWords.length === 1 && Number.isFinite(ctx.tuning.largeForm);
  const itself = ctx.keys.token('name', plan.nameWords[0]!.word);
  const rows: { kind: string; token: string; word: string; n?: number | string | null }[] = await ctx.reads
    .selectFrom('name_words')
    .select(['kind', 'token', 'word'])
    .$if(counting, (qb) =>
      qb.select(
        sql<number | string | null>`case when count(*) over () > ${LARGE_FORM_CANDIDATES}
          or name_words.word = ${itself}
          or ${namesUpTo(ctx, sql.val(itself), ctx.tuning.forgiveBelow)} >= ${ctx.tuning.forgiveBelow}
          then null else ${namesUpTo(ctx, sql.ref('name_words.word'), ctx.tuning.largeForm)} end`.as('n'),
      ),
    )
    .where('account', '=', ctx.account)
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
      prefixWords: w.prefix ? words('nameprefix', [ctx.keys.token('nameprefix', w.prefix)]) : [],
      soundWords: words(
        'namesound',
        w.sounds.map((code) => ctx.keys.token('namesound', code)),
      ),
    })),
  };
}

/** The account's phone countries (a query is read with them: `searchPlan`). */
export const phoneCountries = (ctx: ReadContext) => readPhoneCountries(ctx.reads, ctx.account);
