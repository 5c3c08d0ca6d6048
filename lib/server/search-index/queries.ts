import 'server-only';
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Filters, Sort } from '@/lib/api/list-state';
import { isCollectionId } from '@/lib/api/ids';
import { nameTokens, normaliseEmail, phoneDigits, referenceKey, type TokenKind } from './blind';
import type { IndexDatabase } from './schema';
import type { IndexStore } from './store';

/**
 * Reads of the index: search, filtered and sorted pages, option counts. Every
 * query is parameterised (Kysely), scoped to the store's account and to rows
 * still present upstream. What the user typed is matched as a literal: tokens
 * are HMACs, a reference prefix is a range, never a LIKE pattern.
 */
export type MatchedField = 'id' | 'email' | 'phone' | 'phoneLast4' | 'reference' | 'name';

export type CollectionSummary = {
  id: string;
  reference: string;
  type: string;
  status: string;
  amount: { value: number; currency: string };
  contact: { firstName: string; lastName: string };
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  lineItemCount: number;
};

export type SearchHit = CollectionSummary & { matched: MatchedField[] };
export type IndexPage<T> = { data: T[]; count: number };

/** What a query text can match, each kind normalised as the index stored it. */
export type SearchPlan = {
  id?: string;
  email?: string;
  phone?: string;
  last4?: string;
  referencePrefix: string;
  names: string[];
};

export function searchPlan(q: string): SearchPlan {
  const text = q.normalize('NFKC').trim();
  const plan: SearchPlan = { referencePrefix: referenceKey(text), names: [] };
  if (isCollectionId(text)) plan.id = text;
  if (text.includes('@')) {
    const email = normaliseEmail(text);
    if (email) plan.email = email;
  } else if (/^\+?[\d\s().\-/]+$/.test(text)) {
    const digits = phoneDigits(text);
    if (digits?.length === 4) plan.last4 = digits;
    else if (digits && digits.length >= 6) plan.phone = digits;
  } else {
    plan.names = nameTokens(text).slice(0, 8);
  }
  return plan;
}

type Rows = SelectQueryBuilder<IndexDatabase, 'collections', object>;
type Eb = ExpressionBuilder<IndexDatabase, 'collections'>;

const SORT_COLUMN: Record<Sort, ['created_at' | 'amount_value' | 'updated_at', 'asc' | 'desc']> = {
  '-createdAt': ['created_at', 'desc'],
  createdAt: ['created_at', 'asc'],
  '-amount': ['amount_value', 'desc'],
  amount: ['amount_value', 'asc'],
  '-updatedAt': ['updated_at', 'desc'],
  updatedAt: ['updated_at', 'asc'],
};

export function createQueries(store: IndexStore) {
  const { db, account, keys } = store;

  const tokenIds = (kind: TokenKind, tokens: string[]) => {
    const query = db
      .selectFrom('contact_tokens')
      .select('contact_tokens.id')
      .where('contact_tokens.account', '=', account)
      .where('contact_tokens.kind', '=', kind)
      .where('contact_tokens.token', 'in', tokens);
    // Every name token must match (in any order): group by record, count the distinct tokens it has.
    return tokens.length > 1
      ? query.groupBy('contact_tokens.id').having(sql`count(distinct contact_tokens.token)`, '=', tokens.length)
      : query;
  };

  function searchCondition(eb: Eb, plan: SearchPlan) {
    const terms = [
      eb.and([
        eb('reference_key', '>=', plan.referencePrefix),
        // The highest BMP code point closes the range: every key that starts with the prefix sorts below it.
        eb('reference_key', '<', `${plan.referencePrefix}\uffff`),
      ]),
    ];
    if (plan.id) terms.push(eb('id', '=', plan.id));
    if (plan.email) terms.push(eb('id', 'in', tokenIds('email', [keys.token('email', plan.email)])));
    if (plan.phone) terms.push(eb('id', 'in', tokenIds('phone', [keys.token('phone', plan.phone)])));
    if (plan.last4) terms.push(eb('id', 'in', tokenIds('last4', [keys.token('last4', plan.last4)])));
    if (plan.names.length)
      terms.push(
        eb(
          'id',
          'in',
          tokenIds(
            'name',
            plan.names.map((n) => keys.token('name', n)),
          ),
        ),
      );
    return eb.or(terms);
  }

  function filtered(filters: Filters, plan: SearchPlan | null): Rows {
    let query: Rows = db.selectFrom('collections').where('account', '=', account).where('gone', '=', 0);
    if (filters.status?.length) query = query.where('status', 'in', filters.status);
    if (filters.currency?.length) query = query.where('currency', 'in', filters.currency);
    if (filters.createdFrom) query = query.where('created_at', '>=', `${filters.createdFrom}T00:00:00.000Z`);
    if (filters.createdTo) query = query.where('created_at', '<=', `${filters.createdTo}T23:59:59.999Z`);
    if (filters.amountMin !== undefined) query = query.where('amount_value', '>=', filters.amountMin);
    if (filters.amountMax !== undefined) query = query.where('amount_value', '<=', filters.amountMax);
    if (plan) query = query.where((eb) => searchCondition(eb, plan));
    return query;
  }

  const SUMMARY = [
    'id',
    'reference',
    'type',
    'status',
    'amount_value',
    'currency',
    'created_at',
    'updated_at',
    'completed_at',
    'line_item_count',
    'contact_sealed',
  ] as const;

  type SummaryRow = Pick<IndexDatabase['collections'], (typeof SUMMARY)[number]>;

  function toSummary(row: SummaryRow): CollectionSummary {
    let contact = { firstName: '', lastName: '' };
    try {
      const opened = keys.open(row.contact_sealed, `${account}/${row.id}`);
      contact = { firstName: opened.firstName, lastName: opened.lastName };
    } catch {
      // A row sealed under another secret cannot be read: shown without a name, rebuilt by the next scan.
    }
    return {
      id: row.id,
      reference: row.reference,
      type: row.type,
      status: row.status,
      amount: { value: Number(row.amount_value), currency: row.currency },
      contact,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      completedAt: row.completed_at,
      lineItemCount: Number(row.line_item_count),
    };
  }

  async function page(query: Rows, sort: Sort, pageNumber: number, limit: number) {
    const [column, direction] = SORT_COLUMN[sort];
    const [rows, total] = await Promise.all([
      query
        .select(SUMMARY)
        .orderBy(column, direction)
        // Ties (equal amounts, equal times) in a fixed order, so pages never repeat or skip a row.
        .orderBy('id', direction)
        .limit(limit)
        .offset((pageNumber - 1) * limit)
        .execute(),
      query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, count: Number(total.n) };
  }

  /** Which of a plan's kinds each of these rows matched. */
  async function matchedFields(plan: SearchPlan, rows: SummaryRow[]): Promise<Map<string, MatchedField[]>> {
    const wanted = new Map<string, MatchedField>();
    if (plan.email) wanted.set(keys.token('email', plan.email), 'email');
    if (plan.phone) wanted.set(keys.token('phone', plan.phone), 'phone');
    if (plan.last4) wanted.set(keys.token('last4', plan.last4), 'phoneLast4');
    const nameTokenSet = new Set(plan.names.map((n) => keys.token('name', n)));
    const found =
      rows.length && (wanted.size || nameTokenSet.size)
        ? await db
            .selectFrom('contact_tokens')
            .select(['id', 'kind', 'token'])
            .where('account', '=', account)
            .where(
              'id',
              'in',
              rows.map((r) => r.id),
            )
            .where('token', 'in', [...wanted.keys(), ...nameTokenSet])
            .execute()
        : [];
    const result = new Map<string, MatchedField[]>();
    for (const row of rows) {
      const fields = new Set<MatchedField>();
      if (plan.id === row.id) fields.add('id');
      if (referenceKey(row.reference).startsWith(plan.referencePrefix)) fields.add('reference');
      const mine = found.filter((f) => f.id === row.id);
      for (const f of mine) if (f.kind !== 'name' && wanted.get(f.token)) fields.add(wanted.get(f.token)!);
      if (
        nameTokenSet.size &&
        mine.filter((f) => f.kind === 'name' && nameTokenSet.has(f.token)).length === nameTokenSet.size
      )
        fields.add('name');
      result.set(row.id, [...fields]);
    }
    return result;
  }

  return {
    /** Search by what a customer would quote (contract section 7), newest first, within optional filters. */
    async search(q: string, filters: Filters, pageNumber: number, limit: number): Promise<IndexPage<SearchHit>> {
      const plan = searchPlan(q);
      const { rows, count } = await page(filtered(filters, plan), filters.sort, pageNumber, limit);
      const matched = await matchedFields(plan, rows);
      return { data: rows.map((r) => ({ ...toSummary(r), matched: matched.get(r.id) ?? [] })), count };
    },

    /** A filtered, sorted page of the account's collections. */
    async list(filters: Filters, pageNumber: number, limit: number): Promise<IndexPage<CollectionSummary>> {
      const { rows, count } = await page(filtered(filters, null), filters.sort, pageNumber, limit);
      return { data: rows.map(toSummary), count };
    },

    /** Each status and currency with its count, for the filter menus (whole account). */
    async facets(): Promise<{
      status: { value: string; count: number }[];
      currency: { value: string; count: number }[];
    }> {
      const base = db.selectFrom('collections').where('account', '=', account).where('gone', '=', 0);
      const [status, currency] = await Promise.all([
        base
          .select(['status as value', sql<number>`count(*)`.as('count')])
          .groupBy('status')
          .orderBy('count', 'desc')
          .execute(),
        base
          .select(['currency as value', sql<number>`count(*)`.as('count')])
          .groupBy('currency')
          .orderBy('count', 'desc')
          .execute(),
      ]);
      const num = (rows: { value: string; count: number }[]) =>
        rows.map((r) => ({ value: r.value, count: Number(r.count) }));
      return { status: num(status), currency: num(currency) };
    },
  };
}

export type IndexQueries = ReturnType<typeof createQueries>;
