import 'server-only';
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { Collection } from '@/lib/api/schemas';
import { WRITER_CACHE_SIZE } from '../../database/connect';
import { isUniqueViolation } from '../../database/dialect';
import type { AppDatabase } from '../../database/schema';
import { contactTokens, phoneCountries, referenceKey, sealAad } from '../shared/blind';
import { changesOf, iso, snapshotOf, type Held } from '../shared/history';
import { writeNameWords } from './name-words';
import { listColumns, prepareRecord, storable, type Prepared } from './prepare';
import type { PrepareThread } from './prepare-thread';
import { notePhoneCountries } from '../shared/phone-countries';
import { applyDelta, RollupDelta, type RollupRecord } from './rollups';
import { insertRows, isAnyOf } from '../../database/bulk-rows';
import { sendAhead } from '../../database/send-ahead';
import { openedIdsOnSqlite } from '../shared/opened-ids';
import { chunks, TOKENS_PER_STATEMENT, yieldToRequests, type StoreContext } from './store-context';

/**
 * The index's records: what the upstream showed, written as narrow rows (filters, sorts, counts), details
 * (a page of results), blind tokens (search) and a sealed contact, with the roll-ups counting each change
 * once; and the removal of what a completed scan did not see.
 */

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

/**
 * The narrow rows' two trees by amount: their keys follow no order a scan writes in, so every slice of a first
 * scan wrote ~1,000 scattered leaves of each (in-process, 200,000 records: the rows' inserts and commits took
 * 21.5 s with them, 15.4 s without). On SQLite a bulk first scan drops them when the file holds no other
 * account's rows (every account shares them) and builds them as it completes, one sorted pass each (1-2 s at
 * 1,000,000 rows); meanwhile a sort or filter by amount reads the account's rows without them. Defined as
 * migration 0027 defines them (0001's, with `id` named: the table is a rowid table since).
 */
const AMOUNT_TREES = [
  {
    name: 'collections_currency_amount',
    columns: ['account', 'currency', 'status', 'amount_value', 'created_at', 'id'],
  },
  { name: 'collections_amount', columns: ['account', 'amount_value', 'id'] },
];

/** Whether an account has tokens waiting in the staging table (`settleTokens`). */
const anyStaged = async (q: Kysely<AppDatabase>, account: number) =>
  (await q.selectFrom('contact_tokens_staged').select('id').where('account', '=', account).limit(1).execute()).length >
  0;

/** The tokens of records as the index holds them (from their sealed contacts), deleted by key, kind by kind. */
async function deleteTokens(trx: Transaction<AppDatabase>, store: StoreContext, sealed: Map<string, string>) {
  const { keys, account, accountKey } = store;
  const byKind = new Map<string, Set<string>>();
  for (const [id, contact] of sealed) {
    let opened;
    try {
      opened = keys.open(contact, sealAad(accountKey, id));
    } catch {
      continue; // sealed under another secret: the store was emptied at open, so this cannot happen
    }
    for (const t of contactTokens(keys, opened)) {
      if (!byKind.has(t.kind)) byKind.set(t.kind, new Set());
      byKind.get(t.kind)!.add(t.token);
    }
  }
  const ids = [...sealed.keys()];
  // A first scan's tokens may still wait in the staging table (`settleTokens`): those of these records go
  // too, or a merge would bring an old name back. The table holds rows only while a first scan runs (a few
  // tens of thousands of records' at most): read whole, as it has no index to read by.
  if (await anyStaged(trx, account))
    for (const part of chunks(ids, TOKENS_PER_STATEMENT))
      await trx
        .deleteFrom('contact_tokens_staged')
        .where('account', '=', account)
        .where(isAnyOf(trx, 'id', part))
        .execute();
  for (const [kind, tokens] of byKind) {
    for (const part of chunks([...tokens], TOKENS_PER_STATEMENT)) {
      await trx
        .deleteFrom('contact_tokens')
        .where('account', '=', account)
        .where('kind', '=', kind)
        .where(isAnyOf(trx, 'token', part))
        .where(isAnyOf(trx, 'id', ids))
        .execute();
    }
  }
}

async function writeSlice(
  trx: Transaction<AppDatabase>,
  store: StoreContext,
  slice: Collection[],
  seenAt: string,
  /** The slice's records as the index already holds them: their sealed contacts and what the roll-ups counted. */
  previous: Map<string, { sealed: string; counted: RollupRecord; listed: boolean; held: Held; seenAt: string }>,
  /** What each record's write needs of it alone (`prepareRecord`), made once. */
  prepared: (c: Collection) => Prepared,
  /** New records' tokens go to the staging table (a first scan's: `settleTokens`). */
  stage: boolean,
) {
  const { keys, account } = store;
  {
    // First: its read of what the account has would otherwise wait for every write sent ahead below.
    await notePhoneCountries(trx, account, phoneCountries(slice.map((c) => prepared(c).phone)));
    const rows = slice.map((c) => {
      const { row, details } = prepared(c);
      return { row: { ...row, seen_at: seenAt }, details };
    });
    // The largest writes first: the thread runs them while the smaller ones below are compiled.
    await sendAhead(
      trx,
      (
        await insertRows(
          trx,
          'collections',
          rows.map((r) => r.row),
        )
      ).onConflict((oc) =>
        oc.columns(['account', 'id']).doUpdateSet((eb) => ({
          reference_key: eb.ref('excluded.reference_key'),
          status: eb.ref('excluded.status'),
          amount_value: eb.ref('excluded.amount_value'),
          currency: eb.ref('excluded.currency'),
          created_at: eb.ref('excluded.created_at'),
          updated_at: eb.ref('excluded.updated_at'),
          completed_at: eb.ref('excluded.completed_at'),
          seen_at: eb.ref('excluded.seen_at'),
        })),
      ),
    );
    await sendAhead(
      trx,
      (
        await insertRows(
          trx,
          'collection_details',
          rows.map((r) => r.details),
        )
      ).onConflict((oc) =>
        oc.columns(['account', 'id']).doUpdateSet((eb) => ({
          reference: eb.ref('excluded.reference'),
          type: eb.ref('excluded.type'),
          completed_at: eb.ref('excluded.completed_at'),
          line_item_count: eb.ref('excluded.line_item_count'),
          line_item_totals: eb.ref('excluded.line_item_totals'),
          contact_sealed: eb.ref('excluded.contact_sealed'),
          methods: eb.ref('excluded.methods'),
          follow_up: eb.ref('excluded.follow_up'),
          snapshot: eb.ref('excluded.snapshot'),
        })),
      ),
    );
    // What changed since the index's copy, kept as the record's history (a new record has none).
    const history = (store.keepHistory ? slice : []).flatMap((c) => {
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
}

/** Records as the index holds them, with what the roll-ups counted of them and their sealed contact. */
const counted = (trx: Transaction<AppDatabase>, account: number) =>
  trx
    .selectFrom('collections as c')
    .innerJoin('collection_details as d', (join) =>
      join.onRef('d.account', '=', 'c.account').onRef('d.id', '=', 'c.id'),
    )
    .select([
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
    ])
    .where('c.account', '=', account);

/** What the index holds of these records now: their sealed contacts and what the roll-ups counted. */
const previousOf = async (trx: Transaction<AppDatabase>, account: number, ids: string[]) =>
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

/**
 * A first scan's staged tokens are merged once this many wait (~50,000 records' at ~8 tokens a record): a
 * merge writes each page of `contact_tokens`' tree it reaches once, so the fewer merges the fewer pages
 * written, and the longer a new record waits to be found by its contact (by its reference, amount or
 * status it is found at once). Measured on 300,000 generated records written as a bulk sync writes them
 * (a page a transaction): 176.5 s with every token written in place, 147.2 s staged and merged at this
 * threshold (five merges, 5.8 s of them), 141.3 s merged once at the end.
 */
const SETTLE_AT_TOKENS = 400_000;

/**
 * A merge's slices, by the token's first character (keyed tokens are base64url, spread evenly): each a
 * transaction of its own (~100,000 tokens), so a write that arrives meanwhile (a lease's, the audit log's)
 * waits for one slice. Any order of text splits the tokens into these ranges whole (PostgreSQL's collation
 * orders them differently from SQLite's bytes, but every token falls in exactly one).
 */
const SETTLE_BOUNDS = ['G', 'W', 'm'];

/** Records prepared at most this many at a time before the event loop is given a turn (`prepare`). */
const PREPARED_PER_TURN = 10;

export function createRecords(
  store: StoreContext,
  /** Tokens staged before a merge (`SETTLE_AT_TOKENS`; a test's few). */
  settleAtTokens = SETTLE_AT_TOKENS,
  /** Where `prepare` prepares records (a thread of its own: the runtime's, prepare-thread.ts); else here. */
  thread?: PrepareThread,
) {
  const { db, account, write, keys, accountKey } = store;
  /** Records prepared (`prepareRecord`), by the very object the upstream's page held: dropped with the page. */
  const ready = new WeakMap<Collection, Prepared>();
  /** Records the thread is preparing: their page's answer, which `upsert` waits for rather than prepare again. */
  const preparing = new WeakMap<Collection, Promise<void>>();
  /** Tokens this process staged since its last merge (`settleTokens`). */
  let staged = 0;
  /**
   * Whether this process has looked for staged tokens it did not count (a leader before it, or itself before
   * a restart, stopped mid-scan): merged at its first staged write, so the backlog stays bounded. That write
   * also drops the amount trees the scan builds at its end (`deferTrees`).
   */
  let leftoversMet = false;
  /**
   * Merges the account's staged tokens into `contact_tokens`, in token order, slice by slice; returns how
   * many. Whatever staged them (this process, or a leader before it that stopped mid-scan).
   */
  async function settleTokens(): Promise<number> {
    staged = 0;
    let moved = 0;
    const bounds = [null, ...SETTLE_BOUNDS, null];
    for (let i = 0; i + 1 < bounds.length; i++) {
      const [from, to] = [bounds[i], bounds[i + 1]];
      if (i) await yieldToRequests();
      // The slice's rows: the same condition for the copy and the delete.
      const inSlice = (eb: ExpressionBuilder<AppDatabase, 'contact_tokens_staged'>) =>
        eb.and([
          eb('account', '=', account),
          ...(from != null ? [eb('token', '>=', from)] : []),
          ...(to != null ? [eb('token', '<', to)] : []),
        ]);
      const merge = (tolerant: boolean) =>
        write(async (trx) => {
          const part = trx
            .selectFrom('contact_tokens_staged')
            .select(['account', 'kind', 'token', 'id'])
            .where(inSlice)
            .orderBy('kind')
            .orderBy('token')
            .orderBy('id');
          const copy = trx.insertInto('contact_tokens').columns(['account', 'kind', 'token', 'id']).expression(part);
          await (tolerant ? copy.onConflict((oc) => oc.doNothing()) : copy).execute();
          const done = await trx.deleteFrom('contact_tokens_staged').where(inSlice).executeTakeFirst();
          return Number(done.numDeletedRows);
        });
      // A staged token is rarely in `contact_tokens` already: a record's tokens are staged only while the
      // index holds no row of it (so none of its tokens), and are deleted wherever they are when it is
      // written again. A token backfill that runs during a first scan (after an upgrade that brought a new
      // kind) writes the new kind in place for every held record, staged ones included: then each slice
      // meets one. PostgreSQL's `on conflict do nothing` inserts each row speculatively, a third of a merge
      // (570,000 tokens: 3.1-3.7 s with it, 2.4 s without), so there the slice is copied plainly, and copied
      // again tolerating what it met if it met one (twice the merge's cost, during such a scan only).
      moved += await merge(store.dialect === 'sqlite').catch((error: unknown) =>
        isUniqueViolation(error) ? merge(true) : Promise.reject(error),
      );
    }
    return moved;
  }
  /**
   * Builds the amount trees a first scan dropped (`AMOUNT_TREES`), one write each; returns how many it built.
   * A first scan's end calls it, and a sync's first step that will not stage (sync.ts `treesChecked`), so
   * what a first scan left midway (a stopped leader's, resumed paced; another account's) is built then.
   */
  async function buildTrees(): Promise<number> {
    if (store.dialect !== 'sqlite') return 0;
    const present = new Set(
      (
        await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = 'collections'`.execute(db)
      ).rows.map((r) => r.name),
    );
    const missing = AMOUNT_TREES.filter((tree) => !present.has(tree.name));
    for (const [i, { name, columns }] of missing.entries()) {
      if (i) await yieldToRequests();
      await write(async (trx) => {
        // The sort that builds a tree holds as much as the page cache allows: for 1,000,000 rows ~190 MB more
        // at its peak under a 128 MB cache, ~70 MB under 32 MB, ~30 MB under 16 MB, and no slower (1.1 / 1.6 s
        // against 1.4 / 2.1 s at 128 MB). The writer's own is set again after (a failure to do so is the
        // thread's end, which the build's own error, if any, says better).
        await sql`pragma cache_size = -16384`.execute(trx);
        try {
          await trx.schema.createIndex(name).ifNotExists().on('collections').columns(columns).execute();
          // Its statistics at once (a sample, as the scan's end takes them): a tree built at a scan's start
          // would otherwise have none until that scan completes.
          await sql`pragma analysis_limit = 400`.execute(trx);
          await sql`analyze ${sql.table(`main.${name}`)}`.execute(trx);
        } finally {
          await sql`pragma cache_size = ${sql.lit(WRITER_CACHE_SIZE)}`.execute(trx).catch(() => {});
        }
      });
    }
    return missing.length;
  }
  /**
   * At a bulk first scan's first write: drops the amount trees when no other account's rows are in the file
   * (SQLite), else makes sure they are there.
   */
  async function deferTrees(): Promise<void> {
    if (store.dialect !== 'sqlite') return;
    // Two ranges of the key (an `<>` would read the account's own rows to the end), asked under the write
    // lock the drop is made under.
    const alone = await write(async (trx) => {
      const other = async (op: '<' | '>') =>
        (await trx.selectFrom('collections').select('account').where('account', op, account).limit(1).execute()).length;
      if ((await other('<')) || (await other('>'))) return false;
      for (const { name } of AMOUNT_TREES) await trx.schema.dropIndex(name).ifExists().execute();
      return true;
    });
    if (!alone) await buildTrees();
  }
  const prepared = (c: Collection) => {
    let found = ready.get(c);
    if (!found) {
      found = prepareRecord(keys, account, accountKey, c);
      ready.set(c, found);
    }
    return found;
  };
  return {
    settleTokens,
    buildTrees,
    /** Records the store's preparing thread has prepared (none without one). */
    preparedOnThread: () => thread?.prepared() ?? 0,
    /**
     * Prepares records about to be written (their seal, tokens and snapshot: about half of what writing a new
     * record costs the request thread): a first scan prepares the page it read ahead while the writer's
     * thread writes the page before, so the two overlap. On the store's preparing thread when it has one
     * (the runtime's), resolved when the page is prepared; else here, a few at a time between other work.
     * `upsert` waits for a page the thread is preparing, and prepares whatever was not.
     */
    async prepare(records: Collection[]): Promise<void> {
      if (thread) {
        const todo = records.map(storable).filter((c) => !ready.has(c) && !preparing.has(c));
        if (!todo.length) return;
        // A thread that failed (or was closed) prepares nothing: `upsert` prepares those records itself.
        const done = thread.prepare(todo).then(
          (made) => todo.forEach((c, i) => ready.set(c, made[i]!)),
          () => {},
        );
        for (const c of todo) preparing.set(c, done);
        return done;
      }
      for (let i = 0; i < records.length; i += PREPARED_PER_TURN) {
        await yieldToRequests();
        for (const c of records.slice(i, i + PREPARED_PER_TURN)) prepared(storable(c));
      }
    },
    /**
     * Inserts or refreshes records as the upstream showed them at `seenAt`. `bulk` (an unpaced sync)
     * writes larger slices: fewer commits, each blocking the event loop longer. `stage` (a bulk first
     * scan): the tokens of records new to the index are staged and merged every few tens of thousands
     * (`settleTokens`; the scan's end merges the rest).
     */
    async upsert(
      records: Collection[],
      seenAt: string,
      options: { bulk?: boolean; stage?: boolean } = {},
    ): Promise<void> {
      // The same id twice in one batch (a page that shifted): the last one wins.
      const unique = [...new Map(records.map(storable).map((c) => [c.id, c])).values()];
      if (!unique.length) return;
      // Records the thread is preparing are waited for, not prepared twice.
      const awaited = new Set(unique.map((c) => preparing.get(c)).filter((p) => p !== undefined));
      if (awaited.size) await Promise.all(awaited);
      if (options.stage && !leftoversMet) {
        leftoversMet = true;
        if (await anyStaged(db, account)) await settleTokens();
        await deferTrees();
      }
      // Most records a rescan or a live read meets are as the index has them: those at most get
      // `seen_at` (one statement); the rest are sealed, tokenised and written. What the index holds of them
      // is read where the searches read (a thread of its own on SQLite, the reads' pool on PostgreSQL): a
      // rescan's ids are all over the file, ~4.7 ms a page of 100 at 1,000,000 rows, which at the
      // sandbox's 50 pages a second held the request thread a quarter of every second. The writes (and
      // what a changed record was, read under the write lock) stay on the writer.
      // A first scan's records are nearly all new: it skips this read (what its write reads under the lock
      // finds the few it met before, written again as changed: the same rows, no history). At 1,000,000 it
      // was ~16 ms of every step of 1,000 records, the writer's thread waiting meanwhile.
      const reads = store.connection.reads ?? db;
      const [stored, sync] = options.stage
        ? [[], undefined]
        : await Promise.all([
            reads
              .selectFrom('collections as c')
              // By key, beside each narrow row: a row written before the list's columns were kept (null) or
              // whose methods or follow-up changed without its updatedAt is written again.
              .leftJoin('collection_details as d', (join) =>
                join.onRef('d.account', '=', 'c.account').onRef('d.id', '=', 'c.id'),
              )
              .select([
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
              ])
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
      const known = new Map(stored.map((r) => [r.id, r]));
      // What the history compares beyond the columns: made once a record (a keyed hash of its contact); a
      // record prepared already has it, one not prepared gets it alone (most a rescan meets are unchanged,
      // and need neither seal nor tokens).
      const snapshots = new Map(unique.map((c) => [c.id, ready.get(c)?.snapshot ?? snapshotOf(keys, c)]));
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
      const sameIds = new Set(unique.filter(isSame).map((c) => c.id));
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
      const size = options.stage
        ? RECORDS_PER_FIRST_SCAN_SLICE
        : options.bulk
          ? RECORDS_PER_BULK_SLICE
          : RECORDS_PER_SLICE;
      for (const [i, slice] of chunks(changed, size).entries()) {
        if (i || unchanged.length) await yieldToRequests();
        // What the slice's records were is read under the write lock: another replica may have just
        // written one of them, and the roll-ups must count each change once.
        const written = await write(async (trx) =>
          writeSlice(
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
          ),
        );
        store.words.written(written.words);
        staged += written.staged;
      }
      if (staged >= settleAtTokens) await settleTokens();
    },
    /** Removes rows no scan, poll or live read has seen since `before` (the start of a completed scan). */
    removeUnseen: (before: string): Promise<number> =>
      write(async (trx) => {
        // One pass over the narrow rows finds what the scan did not see (no index on seen_at: every
        // write of a scan would pay for one); the rest is by key. Three passes blocked the event loop
        // ~0.5 s at the end of each scan of 1,000,000 rows.
        const notSeen = await trx
          .selectFrom('collections')
          .select('id')
          .where('account', '=', account)
          .where('seen_at', '<', before)
          .execute();
        // A collection opened by its id that the list does not return (not integrated): no scan sees it,
        // and it stays (its own page refreshes it whenever it is opened).
        const opened = new Set(
          (store.dialect === 'sqlite'
            ? (await sql<{ id: string }>`select id from ${openedIdsOnSqlite(account)}`.execute(trx)).rows
            : await trx
                .selectFrom('collection_details')
                .select('id')
                .where('account', '=', account)
                .where('type', '<>', 'integrated')
                .execute()
          ).map((r) => r.id),
        );
        const unseen = notSeen.filter((r) => !opened.has(r.id));
        const delta = new RollupDelta();
        for (const part of chunks(
          unseen.map((r) => r.id),
          500,
        )) {
          const gone = await counted(trx, account)
            .where(isAnyOf(trx, 'c.id', part))
            .execute();
          for (const g of gone) delta.add(g, -1);
          await deleteTokens(trx, store, new Map(gone.map((g) => [g.id, g.contact_sealed])));
          await trx
            .deleteFrom('collection_details')
            .where('account', '=', account)
            .where(isAnyOf(trx, 'id', part))
            .execute();
          await trx
            .deleteFrom('collections')
            .where('account', '=', account)
            .where(isAnyOf(trx, 'id', part))
            .execute();
        }
        await applyDelta(trx, account, delta);
        return unseen.length;
      }),
  };
}
