import 'server-only';
import type { Filters, Sort } from '@/lib/api/list-state';
import type { CollectionSummary } from '@/lib/api/summary';
import { maskEmail, maskPhone } from '@/lib/format/mask';
import { sql } from 'kysely';
import { emailWords, sealAad } from '../shared/blind';
import { periodsCovering } from '../shared/periods';
import type { ReadContext } from './context';
import { changes } from './rows';
import { DetailRow, ListRows, NARROW_COLUMNS, NarrowRow, Rows, SORT_COLUMN } from './rows-types';

/** Rows in a sort's order from `offset`: ties (equal amounts, equal times) by id, so pages never repeat or skip a row. */
export function inOrder<S extends ListRows>(rows: S, sort: Sort, offset: number, limit: number) {
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
export async function page(
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
 * 1,000,000 collections on SQLite, counting the rows took a hundred milliseconds or more warm for the list and
 * for one status, and the filter menus' two counts seconds right after a start (the
 * pages from disk: past the reads' bound, a 503); the roll-ups are a few hundred rows at most. Null for
 * any other filter (amounts, both ranges, a contact, a change): the rows are counted.
 */
export function rolledUpCount(ctx: ReadContext, filters: Filters): Promise<number> | null {
  const created = Boolean(filters.createdFrom || filters.createdTo);
  const completed = Boolean(filters.completedFrom || filters.completedTo);
  if (
    filters.contact ||
    filters.tag?.length ||
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
  let q = ctx.reads
    .selectFrom('rollups')
    .select(sql<number | string>`coalesce(sum(${sql.ref(completed ? 'completed_count' : 'created_count')}), 0)`.as('n'))
    .where('account', '=', ctx.account)
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
export async function withDetails(ctx: ReadContext, narrow: NarrowRow[]) {
  const details = narrow.length
    ? await ctx.reads
        .selectFrom('collection_details')
        .selectAll()
        .where('account', '=', ctx.account)
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

/** The words of each summary's e-mail local part, as its contact was opened (for `matchedFields`). */
export const localWords = new WeakMap<CollectionSummary, Set<string>>();

export function toSummary(
  ctx: ReadContext,
  { row, details }: { row: NarrowRow; details?: DetailRow },
): CollectionSummary {
  let contact: CollectionSummary['contact'] = {
    firstName: '',
    lastName: '',
    email: '',
    phone: '',
    emailMasked: '',
    phoneMasked: '',
  };
  let local: Set<string> | null = null;
  try {
    if (details) {
      const opened = ctx.keys.open(details.contact_sealed, sealAad(ctx.accountKey, row.id));
      local = new Set(emailWords(opened.email));
      contact = {
        firstName: opened.firstName,
        lastName: opened.lastName,
        email: opened.email,
        phone: opened.phone,
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

/** A page of rows and how many the whole read holds. */
export type IndexPage<T> = { data: T[]; count: number };
