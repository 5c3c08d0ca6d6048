/**
 * One tree's side of `scripts/bench-search.ts`, run with that tree as the working directory (its own
 * `lib/`, `@/` paths and modules: the tree before a change answers beside the tree after it).
 *
 *   build <index path> <records> <fixture path>   writes the index as an unpaced first scan does, and
 *                                                 refreshes the planner's statistics as a scan's end does
 *   serve <index path> [busy]                     answers one search a line on stdin: {"q","page"}; with
 *                                                 `busy`, the request thread is held 3 ms in every 10
 *                                                 (as a sync's pages and other requests hold it)
 *
 * Run with `tsx --conditions=react-server` (the modules are server-only).
 */
import { createInterface } from 'node:readline';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const SECRET = 'bench-search-secret-of-at-least-32-characters';
const ACCOUNT = 'acct_bench_search';
const PAGE = 1_000;
const tree = (path: string) => pathToFileURL(join(process.cwd(), path)).href;

/**
 * The index's store. `served`: opened as the dashboard opens it (database.ts), its reads on their thread and
 * its writes on the writer's; else (the build) on this thread alone.
 */
async function open(path: string, served = false) {
  const { openIndexStore } = await import(tree('lib/server/search-index/store.ts'));
  const { blindKeys } = await import(tree('lib/server/search-index/shared/blind.ts'));
  const keys = blindKeys(SECRET);
  if (!served) return openIndexStore({ target: { kind: 'sqlite', path }, keys, account: ACCOUNT });
  const { openMigrated } = await import(tree('lib/server/database/migrate.ts'));
  const { openReads } = await import(tree('lib/server/database/connect.ts'));
  const target = { kind: 'sqlite', path };
  const opened = await openMigrated(target, Date.now, { writerThread: true });
  const connection = { ...opened.connection, reads: openReads(target) };
  return openIndexStore({ connection, keys, account: ACCOUNT });
}

async function build(path: string, records: number, fixture: string) {
  const { collectionSchema } = await import(tree('lib/api/schemas.ts'));
  const { createRandom } = await import(tree('sandbox/random.ts'));
  const { makeCollection } = await import(tree('sandbox/seed-data.ts'));
  const store = await open(path);
  const r = createRandom(42);
  const start = Date.parse('2025-01-01T00:00:00.000Z');
  const seenAt = new Date().toISOString();
  let contact: unknown = null;
  for (let from = 0; from < records; from += PAGE) {
    const page = Array.from({ length: Math.min(PAGE, records - from) }, (_, i) =>
      collectionSchema.parse(makeCollection(r, from + i, start + (from + i) * 60_000, true)),
    );
    // The contact searched for: one from the middle of the account.
    const middle = page.find((_, i) => from + i === Math.floor(records / 2));
    if (middle) contact = { ...middle.contact, reference: middle.reference };
    await store.prepare(page);
    await store.upsert(page, seenAt, { bulk: true, stage: true });
  }
  await store.settleTokens();
  await store.buildTrees();
  // The statistics a full scan's end leaves (without them SQLite reads some searches' token ranges whole).
  await store.analyze();
  await store.close();
  writeFileSync(fixture, JSON.stringify(contact));
}

/** The request thread held 3 ms in every 10: each round trip to the reads thread may wait behind it. */
function keepBusy() {
  setInterval(() => {
    const until = performance.now() + 3;
    while (performance.now() < until);
  }, 10);
}

async function serve(path: string, busy: boolean) {
  const { defaults, filterSchema } = await import(tree('lib/api/list-state.ts'));
  const { createQueries } = await import(tree('lib/server/search-index/read/index.ts'));
  const store = await open(path, true);
  const queries = createQueries(store);
  const filters = defaults(filterSchema);
  if (busy) keepBusy();
  console.log(JSON.stringify({ ready: true }));
  for await (const line of createInterface({ input: process.stdin })) {
    const { q, page = 1 } = JSON.parse(line) as { q: string; page?: number };
    const started = performance.now();
    const found = await queries.search(q, filters, page, 25);
    console.log(JSON.stringify({ ms: performance.now() - started, count: found.count }));
  }
  await store.close();
  process.exit(0);
}

const [mode, path, records, fixture] = process.argv.slice(2);
if (mode === 'build') await build(path!, Number(records), fixture!);
else if (mode === 'serve') await serve(path!, records === 'busy');
else throw new Error(`bench-search-child: build or serve, not ${mode}`);
