import 'server-only';
import { sql, type Expression, type QueryCreator, type RawBuilder, type SqlBool } from 'kysely';
import type { AppDatabase } from '../../database/schema';
import { type TokenKind } from '../shared/blind';
import { readPhoneCountries } from '../shared/phone-countries';
import { emailWordIds, firstIds, otherArms, referenceIds, tokenIds } from './candidates';
import type { ReadContext } from './context';
import { fragmentArm } from './match';
import { isRanked, readsAsPhone, SearchPlan, searchPlan } from './plan';
import { LARGE_FORM_CANDIDATES, WORD_FORMS_LIMIT } from './tuning';
import { idsFrom, jsonArray } from './walk';

/**
 * How a query is read for this account, in one statement to the reads (two for a phone number: its
 * countries first, which the number's arms are read in). Every stage a search waits for is a round trip to
 * the reads thread, behind whatever else the request thread is doing; one statement asks what the plan's
 * arms hold, and only what that leaves standing is read, inside the same statement (a CASE evaluates its
 * subquery only when taken, on SQLite and on PostgreSQL alike):
 * - how many rows the reference's range holds, up to `forgiveBelow`;
 * - whether the e-mail as typed is indexed (then its words, which find other people's addresses too, are
 *   not searched), and whether the words of a name are of someone's e-mail address at all;
 * - the exact matches' count, up to `forgiveBelow`, when the reference's range leaves the forgiving kinds;
 * - when the count leaves them too: the name words' forms from the vocabulary, and a reference fragment's
 *   ids when they are few.
 */
export async function planOf(ctx: ReadContext, q: string): Promise<SearchPlan> {
  const plan = searchPlan(q, readsAsPhone(q) ? await readPhoneCountries(ctx.reads, ctx.account) : []);
  const held = await planStatement(ctx, plan).executeTakeFirstOrThrow();
  const holds = (value: unknown) => Boolean(Number(value ?? 0));
  const inReference = Number(held.reference ?? 0);
  plan.referenceNone = inReference === 0;
  if (holds(held.email)) plan.emailWords = [];
  if (plan.names.length && plan.emailWords.length) plan.emailArm = holds(held.own);
  // The plan of exact matches only: the forgiving kinds go when the exact ones reach the threshold, as when
  // the reference alone does.
  const exact = held.exact == null ? undefined : Number(held.exact);
  if (inReference >= ctx.tuning.forgiveBelow || (exact ?? 0) >= ctx.tuning.forgiveBelow)
    return { ...plan, nameWords: [], fragment: null };
  const fragment = held.fragment == null ? null : idsFrom(held.fragment);
  if (fragment && fragment.length <= ctx.tuning.fragmentInlineAtMost) plan.fragmentIds = fragment;
  return { ...withWordForms(ctx, plan, formsFrom(held.forms)), exactCount: exact };
}

/** The plan's one statement (`planOf`): a row of what its arms hold, and what they leave standing. */
function planStatement(ctx: ReadContext, plan: SearchPlan) {
  const F = ctx.tuning.forgiveBelow;
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
  const exactCount = isRanked(plan) ? exactCountOf(ctx, plan, exactEmail, ownWords) : null;
  const forms = wordForms(ctx, plan);
  const fragment =
    plan.fragment === null
      ? null
      : ctx.reads
          .selectFrom(
            fragmentArm(ctx, plan.fragment)
              .clearSelect()
              .select('fr.id')
              .limit(ctx.tuning.fragmentInlineAtMost + 1)
              .as('f'),
          )
          // An empty array, not null, when none holds it (PostgreSQL's json_agg of no rows is null).
          .select(
            sql<unknown>`coalesce(${jsonArray(ctx, 'f.id')}, ${ctx.dialect === 'sqlite' ? sql`'[]'` : sql`'[]'::json`})`.as(
              'ids',
            ),
          );
  const checks = (db: QueryCreator<AppDatabase>) =>
    db.selectNoFrom((eb) => [
      eb
        .selectFrom(referenceIds(ctx, plan).limit(F).as('r'))
        .select(sql<number | string>`count(*)`.as('n'))
        .as('reference'),
      sql<number | boolean>`${exactEmail ? eb.exists(exactEmail) : sql.lit(0)}`.as('email'),
      sql<number | boolean>`${ownWords ? eb.exists(ownWords) : sql.lit(0)}`.as('own'),
    ]);
  // An exact kind's plan is its checks alone (the e-mail's, the phone's: nothing forgiving to keep or drop).
  if (!exactCount && !forms && !fragment)
    return checks(ctx.reads).select([
      sql<null>`null`.as('exact'),
      sql<null>`null`.as('forms'),
      sql<null>`null`.as('fragment'),
    ]);
  // Materialized, so each count is read once however often the steps after it name it.
  return ctx.reads
    .with((cte) => cte('held').materialized(), checks)
    .with(
      (cte) => cte('counted').materialized(),
      (db) =>
        db
          .selectFrom('held')
          .selectAll('held')
          .select(
            (exactCount
              ? sql<number | string | null>`case when held.reference < ${F} then (${exactCount}) end`
              : sql<null>`null`
            ).as('exact'),
          ),
    )
    .selectFrom('counted')
    .selectAll('counted')
    .select(() => {
      // Read only when the counts keep the forgiving kinds.
      const kept = (what: Expression<unknown> | null) =>
        what
          ? sql<unknown>`case when counted.reference < ${F} and coalesce(counted.exact, 0) < ${F}
              then (${what}) end`
          : sql<null>`null`;
      return [kept(forms).as('forms'), kept(fragment).as('fragment')];
    });
}

/**
 * The exact matches' count up to `forgiveBelow` (a common name or reference stops reading at it, and then
 * the forgiving kinds are dropped). The e-mail's words are an arm only when the plan's checks keep them:
 * asked in the same statement, the arm's rows are read only when they do.
 */
function exactCountOf(
  ctx: ReadContext,
  plan: SearchPlan,
  exactEmail: Expression<unknown> | null,
  ownWords: Expression<unknown> | null,
) {
  const arms: ReturnType<typeof otherArms> = [referenceIds(ctx, plan), ...otherArms(ctx, { ...plan, emailArm: false })];
  if (plan.emailWords.length && plan.emailArm) {
    const kept = [
      ...(exactEmail ? [sql<SqlBool>`not exists ${exactEmail}`] : []),
      ...(ownWords ? [sql<SqlBool>`exists ${ownWords}`] : []),
    ];
    arms.push(
      emailWordIds(ctx, plan.emailWords, kept.length ? sql<SqlBool>`${sql.join(kept, sql` and `)}` : undefined),
    );
  }
  return ctx.reads
    .selectFrom(firstIds(ctx, arms, ctx.tuning.forgiveBelow).as('e'))
    .select(sql<number | string>`count(*)`.as('n'));
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

type FormRow = { kind: string; token: string; word: string; n: number | string | null };

/** The tokens a plan's name words are forgiven by: their starts and their sounds. */
const wantedForms = (ctx: ReadContext, plan: SearchPlan) =>
  plan.nameWords.flatMap(({ prefix, sounds }) => [
    ...(prefix ? [{ kind: 'nameprefix' as const, token: ctx.keys.token('nameprefix', prefix) }] : []),
    ...sounds.map((code) => ({ kind: 'namesound' as const, token: ctx.keys.token('namesound', code) })),
  ]);

/** A single word's forms are counted too (what `largestForm` asks), unless there are too many. */
const countsForms = (ctx: ReadContext, plan: SearchPlan) =>
  plan.nameWords.length === 1 && Number.isFinite(ctx.tuning.largeForm);

/**
 * The vocabulary's rows of the plan's forgiving forms (at most WORD_FORMS_LIMIT), as one JSON array of
 * `[kind, token, word, n]`: the words each form starts and the words that sound like it, as `name` tokens.
 * A single word's forms are each counted up to `largeForm` when they are few, unless the word itself is a
 * name of at least `forgiveBelow` rows (counted once, up to that: the exact count then drops the forms).
 */
function wordForms(ctx: ReadContext, plan: SearchPlan) {
  const wanted = wantedForms(ctx, plan);
  if (!wanted.length) return null;
  const itself = ctx.keys.token('name', plan.nameWords[0]!.word);
  const n = countsForms(ctx, plan)
    ? sql<number | string | null>`case when count(*) over () > ${LARGE_FORM_CANDIDATES}
          or name_words.word = ${itself}
          or ${namesUpTo(ctx, sql.val(itself), ctx.tuning.forgiveBelow)} >= ${ctx.tuning.forgiveBelow}
          then null else ${namesUpTo(ctx, sql.ref('name_words.word'), ctx.tuning.largeForm)} end`
    : sql<null>`null`;
  const rows = ctx.reads
    .selectFrom('name_words')
    .select(['kind', 'token', 'word', n.as('n')])
    .where('account', '=', ctx.account)
    .where((eb) => eb.or(wanted.map((w) => eb.and([eb('kind', '=', w.kind), eb('token', '=', w.token)]))))
    .limit(WORD_FORMS_LIMIT)
    .as('v');
  const row =
    ctx.dialect === 'sqlite'
      ? sql`json_group_array(json_array(v.kind, v.token, v.word, v.n))`
      : sql`json_agg(json_build_array(v.kind, v.token, v.word, v.n))`;
  return ctx.reads.selectFrom(rows).select(row.as('rows'));
}

/** The vocabulary's rows as read back (`wordForms`): text from SQLite, parsed already from PostgreSQL. */
function formsFrom(value: unknown): FormRow[] {
  const rows = (value == null ? [] : typeof value === 'string' ? JSON.parse(value) : value) as unknown[][];
  return rows.map(([kind, token, word, n]) => ({
    kind: String(kind),
    token: String(token),
    word: String(word),
    n: (n ?? null) as FormRow['n'],
  }));
}

/** The plan with each name word's forgiving forms (`wordForms`' rows): the words it starts, and sounds like. */
function withWordForms(ctx: ReadContext, plan: SearchPlan, rows: FormRow[]): SearchPlan {
  if (!wantedForms(ctx, plan).length) return plan;
  const formSizes = countsForms(ctx, plan) ? new Map<string, number>() : undefined;
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
