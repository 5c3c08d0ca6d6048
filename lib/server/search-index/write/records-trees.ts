import 'server-only';
import { sql } from 'kysely';
import { WRITER_CACHE_SIZE } from '../../database/connect';
import { yieldToRequests, type StoreContext } from './store-context';

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

/**
 * Builds the amount trees a first scan dropped (`AMOUNT_TREES`), one write each; returns how many it built.
 * A first scan's end calls it, and a sync's first step that will not stage (sync.ts `treesChecked`), so
 * what a first scan left midway (a stopped leader's, resumed paced; another account's) is built then.
 */
export async function buildTrees(store: StoreContext): Promise<number> {
  const { db, write } = store;
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
export async function deferTrees(store: StoreContext): Promise<void> {
  const { account, write } = store;
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
  if (!alone) await buildTrees(store);
}
