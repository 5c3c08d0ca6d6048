import 'server-only';
import type { Insertable, Transaction } from 'kysely';
import type { Collection } from '@/lib/api/schemas';
import { insertRows, isAnyOf } from '../../database/bulk-rows';
import { sendAhead } from '../../database/send-ahead';
import type { AppDatabase } from '../../database/schema';
import { phoneCountries } from '../shared/blind';
import { changesOf, type Held } from '../shared/history';
import { notePhoneCountries } from '../shared/phone-countries';
import { writeNameWords } from './name-words';
import type { Prepared } from './prepare';
import { deleteTokens } from './records-tokens';
import { applyDelta, RollupDelta, type RollupRecord } from './rollups';
import { chunks, TOKENS_PER_STATEMENT, type StoreContext } from './store-context';

/**
 * One slice of changed records written in one transaction (records-upsert.ts): their narrow rows and details,
 * their history, the roll-ups' change, their tokens and the forms of their name words.
 */

/** A record as the index held it before the slice's write: its sealed contact and what the roll-ups counted. */
export type Previous = { sealed: string; counted: RollupRecord; listed: boolean; held: Held; seenAt: string };

/** The tables keyed by account and id whose rows a slice inserts or refreshes whole (`upsertAhead`). */
type Keyed = 'collections' | 'collection_details';

/** The columns a record's write refreshes when its row is there already: every one but the key. */
const REFRESHED: { [T in Keyed]: readonly (keyof AppDatabase[T] & string)[] } = {
  collections: [
    'reference_key',
    'status',
    'amount_value',
    'currency',
    'created_at',
    'updated_at',
    'completed_at',
    'seen_at',
  ],
  collection_details: [
    'reference',
    'type',
    'completed_at',
    'line_item_count',
    'line_item_totals',
    'contact_sealed',
    'methods',
    'follow_up',
    'snapshot',
  ],
};

/**
 * Inserts rows of a table keyed by account and id, a row there already getting the new values of its
 * `REFRESHED` columns; sent ahead (send-ahead.ts), as the slice's other inserts are.
 */
async function upsertAhead<T extends Keyed>(
  trx: Transaction<AppDatabase>,
  table: T,
  rows: Insertable<AppDatabase[T]>[],
) {
  await sendAhead(
    trx,
    (await insertRows(trx, table, rows)).onConflict((oc) =>
      oc
        .columns(['account', 'id'] as never)
        .doUpdateSet(
          (eb) =>
            Object.fromEntries(
              REFRESHED[table].map((column) => [column, eb.ref(`excluded.${column}` as never)]),
            ) as never,
        ),
    ),
  );
}

/** The history of the slice's records: what changed since the index's copy (a new record has none). */
function historyOf(
  store: StoreContext,
  slice: Collection[],
  seenAt: string,
  previous: Map<string, Previous>,
  prepared: (c: Collection) => Prepared,
) {
  const { account } = store;
  return (store.keepHistory ? slice : []).flatMap((c) => {
    const before = previous.get(c.id);
    const changes = before ? changesOf(before.held, c, prepared(c).snapshot) : [];
    const status = changes.find((change) => change.field === 'status');
    return changes.length
      ? [
          {
            account,
            id: c.id,
            seen_at: seenAt,
            not_seen_before: before!.seenAt,
            changes: JSON.stringify(changes),
            status_from: status ? before!.held.status : null,
            status_to: status ? c.status : null,
          },
        ]
      : [];
  });
}

export async function writeSlice(
  trx: Transaction<AppDatabase>,
  store: StoreContext,
  slice: Collection[],
  seenAt: string,
  /** The slice's records as the index already holds them: their sealed contacts and what the roll-ups counted. */
  previous: Map<string, Previous>,
  /** What each record's write needs of it alone (`prepareRecord`), made once. */
  prepared: (c: Collection) => Prepared,
  /** New records' tokens go to the staging table (a first scan's: `settleTokens`). */
  stage: boolean,
) {
  const { keys, account } = store;
  // First: its read of what the account has would otherwise wait for every write sent ahead below.
  await notePhoneCountries(trx, account, phoneCountries(slice.map((c) => prepared(c).phone)));
  const rows = slice.map((c) => {
    const { row, details } = prepared(c);
    return { row: { ...row, seen_at: seenAt }, details };
  });
  // The largest writes first: the thread runs them while the smaller ones below are compiled.
  await upsertAhead(
    trx,
    'collections',
    rows.map((r) => r.row),
  );
  await upsertAhead(
    trx,
    'collection_details',
    rows.map((r) => r.details),
  );
  const history = historyOf(store, slice, seenAt, previous, prepared);
  if (history.length)
    await sendAhead(
      trx,
      (await insertRows(trx, 'collection_history', history)).onConflict((oc) => oc.doNothing()),
    );
  // The roll-ups (the overview, the count of rows indexed) count what the list returns: a collection only
  // opened by its id (not integrated) is indexed for search and counted apart (`openedCount`).
  const delta = new RollupDelta();
  for (const old of previous.values()) if (old.listed) delta.add(old.counted, -1);
  for (const r of rows)
    if (r.details.type === 'integrated') delta.add({ ...r.row, completed_at: r.details.completed_at }, 1);
  await applyDelta(trx, account, delta);
  // Records seen before: their old tokens, found again from their old sealed contact, go first.
  if (previous.size) await deleteTokens(trx, store, new Map([...previous].map(([id, p]) => [id, p.sealed])));
  const words = new Map<string, string>();
  const tokensOf = (records: Collection[]) =>
    records.flatMap((c) => {
      const { tokens: own, words: its } = prepared(c);
      for (const [word, token] of its) words.set(word, token);
      return own.map((t) => ({ account, id: c.id, ...t }));
    });
  // A record the index held is written in place (its old tokens were deleted above, wherever they were).
  const staged = stage ? tokensOf(slice.filter((c) => !previous.has(c.id))) : [];
  const tokens = tokensOf(stage ? slice.filter((c) => previous.has(c.id)) : slice);
  for (const part of chunks(tokens, TOKENS_PER_STATEMENT))
    await sendAhead(
      trx,
      (await insertRows(trx, 'contact_tokens', part)).onConflict((oc) => oc.doNothing()),
    );
  for (const part of chunks(staged, TOKENS_PER_STATEMENT))
    await sendAhead(trx, await insertRows(trx, 'contact_tokens_staged', part));
  // The forms of the name words this process has not written yet (most words are met again).
  const pending = store.words.pending(keys, account, words);
  await writeNameWords(trx, pending.rows);
  return { words: pending.words, staged: staged.length };
}

/** What `counted` reads of a record: what the roll-ups counted of it, its sealed contact and what its history compares. */
const COUNTED = [
  'c.id',
  'c.status',
  'c.amount_value',
  'c.currency',
  'c.created_at',
  'c.updated_at',
  'c.seen_at',
  'd.contact_sealed',
  'd.completed_at',
  'd.type',
  'd.line_item_count',
  'd.line_item_totals',
  'd.methods',
  'd.follow_up',
  'd.snapshot',
] as const;

/** Records as the index holds them, with what the roll-ups counted of them and their sealed contact. */
export const counted = (trx: Transaction<AppDatabase>, account: number) =>
  trx
    .selectFrom('collections as c')
    .innerJoin('collection_details as d', (join) =>
      join.onRef('d.account', '=', 'c.account').onRef('d.id', '=', 'c.id'),
    )
    .select(COUNTED)
    .where('c.account', '=', account);

/** What the index holds of these records now: their sealed contacts and what the roll-ups counted. */
export const previousOf = async (trx: Transaction<AppDatabase>, account: number, ids: string[]) =>
  new Map(
    (
      await counted(trx, account)
        .where(isAnyOf(trx, 'c.id', ids))
        .execute()
    ).map(
      (r) =>
        [
          r.id,
          {
            sealed: r.contact_sealed,
            counted: { ...r, amount_value: Number(r.amount_value) },
            listed: r.type === 'integrated',
            held: { ...r, amount_value: Number(r.amount_value), line_item_count: Number(r.line_item_count) },
            seenAt: r.seen_at,
          },
        ] as const,
    ),
  );
