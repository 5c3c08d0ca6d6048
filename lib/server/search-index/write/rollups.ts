import 'server-only';
import { insertRows } from '../../database/bulk-rows';
import { lockIndexWrites } from '../../database/dialect';
import { sendAhead } from '../../database/send-ahead';
import type { Kysely, Transaction } from 'kysely';
import type { AppDatabase } from '../../database/schema';
import { durationBucket } from '../shared/periods';

/**
 * The overview's roll-ups, kept as rows change: every insert, change or
 * removal of a record adds its contribution (or takes its old one away) in the
 * same transaction, so the figures never drift from the rows and reading them
 * costs a few hundred rows whatever the account's size.
 */

/** What a record contributes: the fields the overview counts by. */
export type RollupRecord = {
  created_at: string;
  currency: string;
  status: string;
  amount_value: number;
  completed_at: string | null;
};

type Grain = AppDatabase['rollups']['grain'];
type Counts = Omit<AppDatabase['rollups'], 'account' | 'grain' | 'period' | 'currency' | 'status'>;

const periods = (iso: string): Array<[Grain, string]> => [
  ['d', iso.slice(0, 10)],
  ['m', iso.slice(0, 7)],
  ['y', iso.slice(0, 4)],
  ['a', ''],
];

const ZERO: Counts = {
  created_count: 0,
  created_amount: 0,
  created_completed: 0,
  completed_count: 0,
  completed_amount: 0,
};

/** The changes to apply, summed by key: many records of one page land on a few keys. */
export class RollupDelta {
  readonly counts = new Map<string, { grain: Grain; period: string; currency: string; status: string } & Counts>();
  readonly durations = new Map<
    string,
    { grain: Grain; period: string; currency: string; bucket: number; count: number }
  >();

  /** Adds a record (`sign` 1) or takes it away (`sign` -1). */
  add(record: RollupRecord, sign: 1 | -1): this {
    const { currency, status } = record;
    const amount = Number(record.amount_value) * sign;
    const counted = (grain: Grain, period: string) => {
      const key = `${grain}\u0000${period}\u0000${currency}\u0000${status}`;
      let entry = this.counts.get(key);
      if (!entry) this.counts.set(key, (entry = { grain, period, currency, status, ...ZERO }));
      return entry;
    };
    for (const [grain, period] of periods(record.created_at)) {
      const entry = counted(grain, period);
      entry.created_count += sign;
      entry.created_amount += amount;
      if (record.completed_at) entry.created_completed += sign;
    }
    if (record.completed_at) {
      const bucket = durationBucket(Date.parse(record.completed_at) - Date.parse(record.created_at));
      for (const [grain, period] of periods(record.completed_at)) {
        const entry = counted(grain, period);
        entry.completed_count += sign;
        entry.completed_amount += amount;
        // Completion times are read by day (a range) and for the whole account (all time) only.
        if (grain === 'm' || grain === 'y') continue;
        const key = `${grain}\u0000${period}\u0000${currency}\u0000${bucket}`;
        const duration = this.durations.get(key);
        if (duration) duration.count += sign;
        else this.durations.set(key, { grain, period, currency, bucket, count: sign });
      }
    }
    return this;
  }
}

const ROWS_PER_STATEMENT = 500;

/** Applies a delta: each key's counts added to what is there (keys that cancel out are skipped). */
export async function applyDelta(
  db: Kysely<AppDatabase> | Transaction<AppDatabase>,
  account: number,
  delta: RollupDelta,
): Promise<void> {
  const counts = [...delta.counts.values()]
    .filter((c) => c.created_count || c.created_amount || c.completed_count || c.completed_amount)
    .map((c) => ({ account, ...c }));
  for (let i = 0; i < counts.length; i += ROWS_PER_STATEMENT) {
    await sendAhead(
      db,
      (await insertRows(db, 'rollups', counts.slice(i, i + ROWS_PER_STATEMENT))).onConflict((oc) =>
        oc.columns(['account', 'grain', 'period', 'currency', 'status']).doUpdateSet((eb) => ({
          created_count: eb('rollups.created_count', '+', eb.ref('excluded.created_count')),
          created_amount: eb('rollups.created_amount', '+', eb.ref('excluded.created_amount')),
          created_completed: eb('rollups.created_completed', '+', eb.ref('excluded.created_completed')),
          completed_count: eb('rollups.completed_count', '+', eb.ref('excluded.completed_count')),
          completed_amount: eb('rollups.completed_amount', '+', eb.ref('excluded.completed_amount')),
        })),
      ),
    );
  }
  const durations = [...delta.durations.values()].filter((d) => d.count).map((d) => ({ account, ...d }));
  for (let i = 0; i < durations.length; i += ROWS_PER_STATEMENT) {
    await sendAhead(
      db,
      (await insertRows(db, 'rollup_durations', durations.slice(i, i + ROWS_PER_STATEMENT))).onConflict((oc) =>
        oc
          .columns(['account', 'grain', 'period', 'currency', 'bucket'])
          .doUpdateSet((eb) => ({ count: eb('rollup_durations.count', '+', eb.ref('excluded.count')) })),
      ),
    );
  }
}

const REBUILD_BATCH = 20_000;

/**
 * Recomputes an account's roll-ups from its rows (an index written before roll-ups existed), a batch
 * of rows at a time in key order, with a turn of the event loop between batches; inside `db` when it
 * is a transaction.
 */
export async function rebuildRollups(db: Kysely<AppDatabase>, account: number): Promise<void> {
  const delta = new RollupDelta();
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('collections as c')
      .innerJoin('collection_details as d', (join) =>
        join.onRef('d.account', '=', 'c.account').onRef('d.id', '=', 'c.id'),
      )
      .select(['c.id', 'c.created_at', 'c.currency', 'c.status', 'c.amount_value', 'd.completed_at', 'd.type'])
      .where('c.account', '=', account)
      .where('c.id', '>', after)
      .orderBy('c.id')
      .limit(REBUILD_BATCH)
      .execute();
    // The overview counts what the list returns: a collection only opened by its id is searchable, not counted.
    for (const row of rows) if (row.type === 'integrated') delta.add(row, 1);
    if (rows.length < REBUILD_BATCH) break;
    after = rows[rows.length - 1]!.id;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const replace = async (trx: Kysely<AppDatabase>) => {
    await lockIndexWrites(trx, account);
    await trx.deleteFrom('rollups').where('account', '=', account).execute();
    await trx.deleteFrom('rollup_durations').where('account', '=', account).execute();
    await applyDelta(trx, account, delta);
  };
  // In the caller's transaction when there is one (the store's, holding the write lock since before the count).
  if (db.isTransaction) await replace(db);
  else await db.transaction().execute(replace);
}

/** Rows whose counts have all gone to zero (records moved to another status or day), dropped now and then. */
export async function pruneRollups(db: Kysely<AppDatabase>, account: number): Promise<void> {
  await db
    .deleteFrom('rollups')
    .where('account', '=', account)
    .where('created_count', '=', 0)
    .where('completed_count', '=', 0)
    .execute();
  await db.deleteFrom('rollup_durations').where('account', '=', account).where('count', '=', 0).execute();
}

/** A run of one grain's periods, both ends included (`a`: the whole account, `lo` and `hi` empty). */
