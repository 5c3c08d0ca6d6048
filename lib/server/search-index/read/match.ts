import 'server-only';
import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely';
import { manyNameWords, type TokenKind } from '../shared/blind';
import { coveringPairs } from './candidates';
import type { ReadContext } from './context';
import { FRAGMENT_LIMIT, RANK, SearchPlan, oneTrigram, referenceRange, trigramQuery } from './plan';
import { SearchDb } from './rows-types';

/**
 * Ends an EXISTS asked of each of a few rows, so that PostgreSQL probes the key once a row. Without it the
 * planner may choose, from its estimates, to hash the subquery's whole key range instead: `rankSizes` hashed
 * the 50,494 rows of 'Okafor' to ask 105 rows whether they held it (35-50 ms, against 1 ms probed), and which
 * way it went changed with each sample of the statistics. An OFFSET keeps PostgreSQL from turning the EXISTS
 * into a hashable ANY; SQLite probes each row either way.
 */
export const PROBED_PER_ROW = sql`limit 1 offset 0`;

/**
 * Whether the row holds any of these tokens of a kind, each looked up by the whole primary key. `perRow`:
 * a walk that reads few rows of many matches (`probedPerRow`) has PostgreSQL probe the key once a row;
 * else it may hash the tokens' whole key ranges first (what it chooses from its estimates).
 */
export const holds = (
  ctx: ReadContext,
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
    .where('t.account', '=', ctx.account)
    .where('t.kind', '=', kind)
    .where((w) => (tokens.length === 1 ? w('t.token', '=', tokens[0]!) : w('t.token', 'in', tokens)))
    .whereRef('t.id', '=', 'collections.id');
  // (PROBED_PER_ROW: an OFFSET keeps PostgreSQL from hashing the subquery.)
  return eb.exists(perRow ? asked.limit(1).offset(0) : asked);
};

/**
 * Whether a walk should probe each row's tokens (`holds`) rather than let PostgreSQL hash the matches'
 * ids: when it expects to read few rows against the matches it would hash. A row probed costs several times
 * an id hashed (a row that does not match asks each of its arms): 'Oka' walked ~140 rows of the created-time
 * index to fill its page, and hashing the 50,494 ids of 'Okafor' for it took about thirty times as long as
 * probing; a common first name's page 50 reads ~12,000 rows of 41,806 matches, where hashing wins.
 */
export const probedPerRow = (ctx: ReadContext, expected: number, matches: number) =>
  expected * ctx.tuning.probeCostInIds <= matches;

/**
 * Whether a row matches a plan, asked of one row (the arms of `candidates` as a condition): its own
 * reference and id, and each token looked up by the whole primary key.
 */
export function matchesRow(ctx: ReadContext, plan: SearchPlan, perRow: boolean) {
  return (eb: ExpressionBuilder<SearchDb, 'collections'>) => {
    const has = (kind: TokenKind, token: string) => holds(ctx, eb, kind, [token], perRow);
    const either = plan.referenceNone
      ? []
      : [
          eb.and([
            eb('collections.reference_key', '>=', referenceRange(plan)[0]),
            eb('collections.reference_key', referenceRange(plan)[1], referenceRange(plan)[2]),
          ]),
        ];
    if (plan.id) either.push(eb('collections.id', '=', plan.id));
    if (plan.email) either.push(has('email', ctx.keys.token('email', plan.email)));
    if (plan.phone) either.push(has('phone', ctx.keys.token('phone', plan.phone)));
    if (plan.last4) either.push(has('last4', ctx.keys.token('last4', plan.last4)));
    for (const n of plan.nationals) either.push(has('phone', ctx.keys.token('phone', n)));
    if (plan.emailWords.length && plan.emailArm)
      either.push(
        eb.and(
          plan.emailWords.map((w) =>
            eb.or([has('emailword', ctx.keys.token('emailword', w)), has('name', ctx.keys.token('name', w))]),
          ),
        ),
      );
    const words = plan.names.map((w) => ctx.keys.token('name', w));
    if (words.length < 2 || !ctx.namePairsReady) {
      if (words.length) either.push(eb.and(words.map((t) => has('name', t))));
    } else {
      either.push(eb.and(coveringPairs(ctx, plan.names).map((p) => has('name2', p))));
      either.push(eb.and([has('name2', manyNameWords(ctx.keys)), ...words.map((t) => has('name', t))]));
    }
    return eb.or(either);
  };
}

/**
 * Whether a row's best match is at most this rank: an exact kind (`matchesRow`), or, from the prefix rank
 * on, every name word in a form that forgiving (the word, its start, then its sound).
 */
export function matchesAtMost(ctx: ReadContext, plan: SearchPlan, rank: number, perRow: boolean) {
  return (eb: ExpressionBuilder<SearchDb, 'collections'>) => {
    const exact = matchesRow(ctx, plan, perRow)(eb);
    if (rank === RANK.exact) return exact;
    const has = (tokens: string[]) => holds(ctx, eb, 'name', tokens, perRow);
    const either = [exact];
    if (plan.nameWords.length)
      either.push(
        eb.and(
          plan.nameWords.map(({ word, prefixWords, soundWords }) =>
            eb.or([
              has([ctx.keys.token('name', word)]),
              ...(prefixWords.length ? [has(prefixWords)] : []),
              ...(rank >= RANK.sounds && soundWords.length ? [has(soundWords)] : []),
            ]),
          ),
        ),
      );
    if (rank >= RANK.sounds && plan.fragment !== null) either.push(eb.and([containsFragment(ctx, plan.fragment)]));
    return eb.or(either);
  };
}

/** These ids with a rank, as rows: one parameter (a JSON array in SQLite, an array in PostgreSQL). */
export function givenIds(ctx: ReadContext, ids: string[], rank: number) {
  const rows =
    ctx.dialect === 'sqlite'
      ? sql<{
          id: string;
          rank: number;
        }>`(select value as id, ${sql.lit(rank)} as rank from json_each(${JSON.stringify(ids)}))`
      : sql<{ id: string; rank: number }>`(select unnest(${ids}::text[]) as id, ${sql.lit(rank)} as rank)`;
  return ctx.reads.selectFrom(rows.as('given')).select(['given.id', 'given.rank']);
}

/**
 * Whether a row's id is one of these (one parameter), asked of each row as a filter: on PostgreSQL an
 * array (`= any`, a hash probe), never a subquery the planner would turn into a join that looks every
 * id up by key (2,074 lookups, 11 ms, where the walk it is for reads 4,000 index entries in 1 ms).
 */
export const oneOf = (ctx: ReadContext, ids: string[], column: RawBuilder<unknown>) =>
  ctx.dialect === 'sqlite'
    ? sql<boolean>`${column} in (select value from json_each(${JSON.stringify(ids)}))`
    : sql<boolean>`${column} = any(${ids}::text[])`;

/** Whether a row's reference holds the fragment: asked of the key itself (no pattern, no index needed). */
export const containsFragment = (ctx: ReadContext, fragment: string) =>
  ctx.dialect === 'sqlite'
    ? sql<boolean>`instr(collections.reference_key, ${fragment}) > 0`
    : sql<boolean>`strpos(collections.reference_key, ${fragment}) > 0`;

/**
 * Rows whose reference holds the fragment, at most FRAGMENT_LIMIT: read through the trigram index
 * (migration 0011), each candidate checked against its key.
 */
export function fragmentArm(ctx: ReadContext, fragment: string) {
  if (ctx.dialect === 'sqlite') {
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
        and r.account = ${ctx.account}
      limit ${FRAGMENT_LIMIT})`
      : sql<{ id: string; rank: number }>`(select c.id as id, ${sql.lit(RANK.sounds)} as rank
      from reference_fragments cross join reference_fragment_rows as r cross join collections as c
      where reference_fragments match ${trigramQuery(fragment)} and r.rowid = reference_fragments.rowid
        and r.account = ${ctx.account} and c.account = r.account and c.id = r.id
        and instr(c.reference_key, ${fragment}) > 0
      limit ${FRAGMENT_LIMIT})`;
    return ctx.reads.selectFrom(driven.as('fr')).select(['fr.id', 'fr.rank']);
  }
  const inner = ctx.reads
    .selectFrom('collections')
    .select(['collections.id', sql<number>`${sql.lit(RANK.sounds)}`.as('rank')])
    .where('collections.account', '=', ctx.account)
    .where(sql<boolean>`collections.reference_key like ${`%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`)
    .where(containsFragment(ctx, fragment))
    .limit(FRAGMENT_LIMIT);
  return ctx.reads.selectFrom(inner.as('fr')).select(['fr.id', 'fr.rank']);
}
