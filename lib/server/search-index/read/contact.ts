import 'server-only';
import type { ContactHead, ContactTotalsRow } from '@/lib/api/contacts';
import { sql } from 'kysely';
import { normaliseEmail, sealAad } from '../shared/blind';
import { CONTACTS_DONE, CONTACTS_LINKED } from '../shared/meta-keys';
import { tokenIds } from './candidates';
import type { ReadContext } from './context';
import { toSummary, withDetails } from './page';
import { contactIds } from './rows';
import { DetailRow, NARROW_COLUMNS, NarrowRow } from './rows-types';

export const facetsOf = (counts: Map<string, number>) =>
  [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
/** The most collections under a contact's e-mail read to find its other contact ids. */
export const SAME_EMAIL_READ = 500;
export type ContactTotals = ContactTotalsRow;
export type ContactOverview = ContactHead;

/**
 * A contact's page (contract section 14) without its list: who it is (its newest collection's contact,
 * opened), its totals per currency (pending, completed, every other status), and the other contact ids
 * the index knows under the same e-mail (a person recreated upstream). Null when the index holds no
 * collection of it.
 */
export async function contactOverview(ctx: ReadContext, contactId: string): Promise<ContactOverview | null> {
  const mine = () =>
    ctx.reads
      .selectFrom(contactIds(ctx, contactId).as('k'))
      .crossJoin('collections')
      .where('collections.account', '=', ctx.account)
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
    ctx.reads
      .selectFrom('index_meta')
      .select('value')
      .where('key', '=', `${CONTACTS_LINKED}:${ctx.account}`)
      .executeTakeFirst(),
  ]);
  if (!newest.length) return null;
  const [row] = await withDetails(ctx, newest as NarrowRow[]);
  const contact = toSummary(ctx, row!).contact;
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
      email: contact.email,
      phone: contact.phone,
      emailMasked: contact.emailMasked,
      phoneMasked: contact.phoneMasked,
    },
    totals: [...totals.values()].sort(
      (a, b) =>
        b.pending.count + b.completed.count + b.other.count - (a.pending.count + a.completed.count + a.other.count) ||
        a.currency.localeCompare(b.currency),
    ),
    sameEmail: await sameEmailOthers(ctx, contactId, row!.details),
    linked: linked?.value === CONTACTS_DONE,
    facets: { status: facetsOf(byStatus), currency: facetsOf(byCurrency) },
  };
}

/**
 * Other contact ids under the e-mail of this contact's newest collection: the collections holding that
 * e-mail's token but not this contact's, opened to read their contact ids (at most SAME_EMAIL_READ of
 * them; a row sealed before contact ids were kept says nothing).
 */
export async function sameEmailOthers(ctx: ReadContext, contactId: string, details: DetailRow | undefined) {
  if (!details) return [];
  let email: string | null = null;
  try {
    email = normaliseEmail(ctx.keys.open(details.contact_sealed, sealAad(ctx.accountKey, details.id)).email);
  } catch {
    return [];
  }
  if (!email) return [];
  const ids = await tokenIds(ctx, 'email', ctx.keys.token('email', email))
    .where('contact_tokens.id', 'not in', contactIds(ctx, contactId))
    .limit(SAME_EMAIL_READ)
    .execute();
  if (!ids.length) return [];
  const rows = await ctx.reads
    .selectFrom('collection_details')
    .select(['id', 'contact_sealed'])
    .where('account', '=', ctx.account)
    .where(
      'id',
      'in',
      ids.map((r) => r.id),
    )
    .execute();
  const others = new Map<string, { id: string; firstName: string; lastName: string; count: number }>();
  for (const r of rows) {
    try {
      const opened = ctx.keys.open(r.contact_sealed, sealAad(ctx.accountKey, r.id));
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
        await ctx.reads
          .selectFrom(contactIds(ctx, other.id).as('k'))
          .select(sql<number | string>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return found.sort((a, b) => b.count - a.count || a.id.localeCompare(b.id));
}
