import 'server-only';
import type { Collection } from '@/lib/api/schemas';
import { isAnyOf } from '../../database/bulk-rows';
import { referenceKey } from '../shared/blind';
import { iso, snapshotOf } from '../shared/history';
import { listColumns, storable, type Prepared } from './prepare';
import type { RecordsContext } from './records-context';
import { preparedOf } from './records-prepare';
import { previousOf, writeSlice } from './records-slice';
import { anyStaged, settleTokens } from './records-tokens';
import { deferTrees } from './records-trees';
import { chunks, yieldToRequests, type StoreContext } from './store-context';

/**
 * Records per transaction. A transaction holds the one SQLite connection (on the writer's thread in the
 * runtime, on the caller's in tools and tests, where better-sqlite3 blocks its event loop), so a page is
 * written in slices with a turn of the loop between them: another write that arrives during a sync (the
 * audit log's, a lease's) waits for one slice (a few ms at a million rows), not for the whole page.
 */
const RECORDS_PER_SLICE = 25;
const RECORDS_PER_BULK_SLICE = 100;
/**
 * A bulk first scan's (`stage`): its pages are written ten at a time (sync.ts `FIRST_SCAN_PAGES`), one
 * transaction each: the narrow rows' eight trees in creation order get each page written once a slice, not
 * once a page. A slice holds the writer's thread ~0.3 s (what waits meanwhile is another write, not a
 * request).
 */
const RECORDS_PER_FIRST_SCAN_SLICE = 1_000;

/** What `heldOf` reads of a record: what `sameIdsOf` compares with what the upstream shows. */
const HELD = [
  'c.id',
  'c.status',
  'c.amount_value',
  'c.currency',
  'c.updated_at',
  'c.reference_key',
  'c.created_at',
  'c.completed_at',
  'c.seen_at',
  'd.methods',
  'd.follow_up',
  'd.snapshot',
] as const;

/**
 * What the index holds of records (by key, beside each narrow row), and when the running scan began.
 * Most records a rescan or a live read meets are as the index has them: those at most get `seen_at` (one
 * statement); the rest are sealed, tokenised and written. What the index holds of them is read where the
 * searches read (a thread of its own on SQLite, the reads' pool on PostgreSQL): a rescan's ids are all over
 * the file, ~4.7 ms a page of 100 at 1,000,000 rows, which at the sandbox's 50 pages a second held the
 * request thread a quarter of every second. The writes (and what a changed record was, read under the
 * write lock) stay on the writer.
 */
const heldOf = (store: StoreContext, unique: Collection[]) => {
  const { db, account } = store;
  const reads = store.connection.reads ?? db;
  return Promise.all([
    reads
      .selectFrom('collections as c')
      // By key, beside each narrow row: a row written before the list's columns were kept (null) or
      // whose methods or follow-up changed without its updatedAt is written again.
      .leftJoin('collection_details as d', (join) =>
        join.onRef('d.account', '=', 'c.account').onRef('d.id', '=', 'c.id'),
      )
      .select(HELD)
      .where('c.account', '=', account)
      .where(
        isAnyOf(
          reads,
          'c.id',
          unique.map((c) => c.id),
        ),
      )
      .execute(),
    reads.selectFrom('sync_state').select('scan_started_at').where('account', '=', account).executeTakeFirst(),
  ]);
};
type HeldRow = Awaited<ReturnType<typeof heldOf>>[0][number];

/** The ids of the records that are as the index holds them (`known`): their write is at most `seen_at`. */
function sameIdsOf(ctx: RecordsContext, unique: Collection[], known: Map<string, HeldRow>): Set<string> {
  // What the history compares beyond the columns: made once a record (a keyed hash of its contact); a
  // record prepared already has it, one not prepared gets it alone (most a rescan meets are unchanged,
  // and need neither seal nor tokens).
  const snapshots = new Map(unique.map((c) => [c.id, ctx.ready.get(c)?.snapshot ?? snapshotOf(ctx.store.keys, c)]));
  // A stored time equal to the upstream's text needs no Date (the usual case: both are ISO with ms).
  const sameTime = (stored: string | null, given: string | null) => stored === given || stored === iso(given);
  const isSame = (c: Collection) => {
    const r = known.get(c.id);
    const columns = listColumns(c);
    return (
      r !== undefined &&
      r.status === c.status &&
      Number(r.amount_value) === c.amount.value &&
      r.currency === c.amount.currency &&
      sameTime(r.updated_at, c.updatedAt) &&
      sameTime(r.completed_at, c.completedAt) &&
      r.reference_key === referenceKey(c.reference) &&
      r.methods === columns.methods &&
      r.follow_up === columns.follow_up &&
      // A row kept before snapshots (null), or before they held the contact id, is written once more:
      // that gives it its contact's token (contact pages), and its history a snapshot to compare.
      r.snapshot === snapshots.get(c.id)
    );
  };
  return new Set(unique.filter(isSame).map((c) => c.id));
}

/** The upstream's count of listed collections (`sync_state.upstream_count`), as a list page gave it. */
const countWritten = (db: StoreContext['db'], account: number, upstreamCount: number) =>
  db.updateTable('sync_state').set({ upstream_count: upstreamCount }).where('account', '=', account).execute();

/**
 * Inserts or refreshes records as the upstream showed them at `seenAt` (store-records.ts
 * `IndexRecords.upsert`): the unchanged ones get at most `seen_at`, the changed ones are written a slice a
 * transaction, each slice read again under the write lock. `upstreamCount`, the count of the list page the
 * records came from, is written in the first slice's transaction (alone when none changed): that count holds
 * every record of the page, so no reading of the index sees its new rows beside an older, smaller count
 * ("340 of 339 indexed", seen while the sandbox's activity added collections).
 */
export async function upsert(
  ctx: RecordsContext,
  records: Collection[],
  seenAt: string,
  options: { bulk?: boolean; stage?: boolean; upstreamCount?: number } = {},
): Promise<void> {
  const { store } = ctx;
  const { db, account, write } = store;
  const { upstreamCount } = options;
  const prepared = (c: Collection): Prepared => preparedOf(ctx, c);
  // The same id twice in one batch (a page that shifted): the last one wins.
  const unique = [...new Map(records.map(storable).map((c) => [c.id, c])).values()];
  if (!unique.length) {
    if (upstreamCount !== undefined) await countWritten(db, account, upstreamCount);
    return;
  }
  // Records the thread is preparing are waited for, not prepared twice.
  const awaited = new Set(unique.map((c) => ctx.preparing.get(c)).filter((p) => p !== undefined));
  if (awaited.size) await Promise.all(awaited);
  if (options.stage && !ctx.leftoversMet) {
    ctx.leftoversMet = true;
    if (await anyStaged(db, account)) await settleTokens(ctx);
    await deferTrees(store);
  }
  // A first scan's records are nearly all new: it skips this read (what its write reads under the lock
  // finds the few it met before, written again as changed: the same rows, no history). At 1,000,000 it
  // was ~16 ms of every step of 1,000 records, the writer's thread waiting meanwhile.
  const [stored, sync] = options.stage ? [[], undefined] : await heldOf(store, unique);
  const known = new Map(stored.map((r) => [r.id, r]));
  const sameIds = sameIdsOf(ctx, unique, known);
  const same = (c: Collection) => sameIds.has(c.id);
  // `seen_at` only answers "seen since the running scan began?" (what a completed scan did not see
  // since its start is removed), so only records not seen since then are marked, and with no scan
  // running none are: a live list page re-read no longer writes 100 rows (~1 ms of CPU a request).
  const scanStart = sync?.scan_started_at ?? null;
  const unchanged = unique
    .filter((c) => same(c) && scanStart !== null && known.get(c.id)!.seen_at < scanStart)
    .map((c) => c.id);
  if (unchanged.length) {
    await db
      .updateTable('collections')
      .set({ seen_at: seenAt })
      .where('account', '=', account)
      .where(isAnyOf(db, 'id', unchanged))
      .execute();
  }
  const changed = unique.filter((c) => !same(c));
  if (!changed.length && upstreamCount !== undefined) await countWritten(db, account, upstreamCount);
  const size = options.stage ? RECORDS_PER_FIRST_SCAN_SLICE : options.bulk ? RECORDS_PER_BULK_SLICE : RECORDS_PER_SLICE;
  for (const [i, slice] of chunks(changed, size).entries()) {
    if (i || unchanged.length) await yieldToRequests();
    // What the slice's records were is read under the write lock: another replica may have just
    // written one of them, and the roll-ups must count each change once.
    const written = await write(async (trx) => {
      if (i === 0 && upstreamCount !== undefined) await countWritten(trx, account, upstreamCount);
      return writeSlice(
        trx,
        store,
        slice,
        seenAt,
        await previousOf(
          trx,
          account,
          slice.map((c) => c.id),
        ),
        prepared,
        options.stage ?? false,
      );
    });
    store.words.written(written.words);
    ctx.staged += written.staged;
  }
  if (ctx.staged >= ctx.settleAtTokens) await settleTokens(ctx);
}
