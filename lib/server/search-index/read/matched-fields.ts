import 'server-only';
import type { CollectionSummary, MatchedField } from '@/lib/api/summary';
import { nameTokens, referenceKey } from '../shared/blind';
import type { ReadContext } from './context';
import { localWords } from './page';
import { RANK, SearchPlan } from './plan';

/** The tokens a plan looks for: each kind's with what it says it matched, and each name word's forms. */
export function wantedTokens(ctx: ReadContext, plan: SearchPlan) {
  const wanted = new Map<string, MatchedField>();
  if (plan.email) wanted.set(ctx.keys.token('email', plan.email), 'email');
  // A national form read whole in one of the account's countries; the number as typed, when it is the
  // same, says more (set after).
  for (const n of plan.nationals) wanted.set(ctx.keys.token('phone', n), 'phoneNational');
  if (plan.phone) wanted.set(ctx.keys.token('phone', plan.phone), 'phone');
  if (plan.last4) wanted.set(ctx.keys.token('last4', plan.last4), 'phoneLast4');
  const nameTokenSet = new Set(plan.names.map((n) => ctx.keys.token('name', n)));
  // Each name word's forgiving forms: the words it starts, the words that sound like it.
  const forms = plan.nameWords.map((w) => ({
    exact: ctx.keys.token('name', w.word),
    prefix: new Set(w.prefixWords),
    sounds: new Set(w.soundWords),
  }));
  return { wanted, nameTokenSet, forms };
}

export type WantedTokens = ReturnType<typeof wantedTokens>;

/**
 * The plan's tokens these rows hold (`wantedTokens`): asked beside the rows' details (one round trip
 * fewer on PostgreSQL), told apart by `matchedFields` once the rows are opened.
 */
export async function matchedTokens(
  ctx: ReadContext,
  plan: SearchPlan,
  ids: string[],
  { wanted, nameTokenSet, forms }: WantedTokens,
) {
  const formTokens = forms.flatMap((f) => [...f.prefix, ...f.sounds]);
  return ids.length && (wanted.size || nameTokenSet.size)
    ? ctx.reads
        // The page's rows drive (CROSS JOIN keeps them the outer loop in SQLite), each one's tokens
        // looked up by the whole primary key. Asked by id IN (...) instead, SQLite read every id of
        // the typed name tokens (a common name: ~90,000 keys, 13-18 ms) to find the page's ten, and
        // without the kinds PostgreSQL read every token of the account (5 million rows, 215 ms).
        .selectFrom('collections')
        .crossJoin('contact_tokens as t')
        .select(['t.id', 't.kind', 't.token'])
        .where('collections.account', '=', ctx.account)
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
export function matchedFields(
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
