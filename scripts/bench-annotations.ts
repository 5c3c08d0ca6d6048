/**
 * Notes and tags at scale (issue 77), `npm run bench:annotations` (`next build` first), on SQLite and on
 * PostgreSQL (when installed), each an index of BENCH_SCALE (1,000,000) collections synced here. Every figure is
 * a p95 of two pages asked in turn (A B A B) in one run:
 *
 * - a record page with 20 notes and 5 tags against a record of the same shape with none;
 * - a list filtered by a tag against the same list filtered by a status, the tag on that status's rows (the
 *   status with the most rows up to 100,000): the page and the API;
 * - the list, a search and a record page while rows are tagged by a list state (`POST /api/tags/{name}/
 *   collections` with `{ query }`, BENCH_ANNOTATIONS_BULK rows: 100,000) against the same pages idle, and the
 *   dashboard's event-loop delay p99 / max over the tagging (prom-client's, from /api/metrics), and how long
 *   the request took.
 *
 * Written to bench/results-annotations.{json,md}.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { createDatabase } from '../sandbox/db';
import { SEED_VERSION } from '../sandbox/seed-data';
import { postgresBinaries, SIZED_SETTINGS, startPostgres } from './postgres-server';
import { exited, runBin } from './run-bin.mjs';
import { sleep, waitFor } from './server-processes';
import type { ChildProcess } from 'node:child_process';

const SCALE = Number(process.env.BENCH_SCALE ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ANNOTATIONS_ROUNDS ?? 40);
const BULK = Number(process.env.BENCH_ANNOTATIONS_BULK ?? 100_000);
const [PORT, SANDBOX, PG] = (process.env.BENCH_ANNOTATIONS_PORTS ?? '3670,4670,5670').split(',').map(Number) as [
  number,
  number,
  number,
];
const METRICS_TOKEN = 'bench-annotations-metrics-0123456789';
const sandboxFile = resolve(`.data/bench-${SCALE}.sqlite`);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', LOG_LEVEL: 'warn', SANDBOX_PORT: String(SANDBOX) };
const base = `http://127.0.0.1:${PORT}`;
const children: ChildProcess[] = [];
// SIGTERM: tsx passes it on to the process it runs (a SIGKILL would leave that one serving).
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM')));

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const p95 = (xs: number[]) => round(percentile(xs, 95));

/** Answers that were not a 200, by page and status: a figure of their own, never a crash of the run. */
let failed: Record<string, number> = {};
async function timed(path: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${base}${path}`);
  await res.arrayBuffer();
  if (!res.ok) {
    const key = `${path.split('?')[0]}?… ${res.status}`;
    failed[key] = (failed[key] ?? 0) + 1;
  }
  return performance.now() - t;
}
const json = async <T>(path: string, init?: { method: string; body?: unknown }): Promise<T> => {
  const res = await fetch(`${base}${path}`, {
    method: init?.method ?? 'GET',
    headers: init?.body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!res.ok && res.status !== 409)
    throw new Error(`${init?.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};
const count = async (query: string) =>
  (await json<{ meta: { count: number } }>(`/api/collections?${query}&limit=1`)).meta.count;

/** p95 of each page, asked in turn ROUNDS times after two unmeasured rounds. */
async function sideBySide(paths: string[], rounds = ROUNDS): Promise<number[]> {
  const times = paths.map(() => [] as number[]);
  for (let r = -2; r < rounds; r++)
    for (const [i, path] of (r % 2 ? paths.map((p, i) => [i, p] as const).reverse() : paths.entries()) as Iterable<
      readonly [number, string]
    >) {
      const ms = await timed(path);
      if (r >= 0) times[i]!.push(ms);
    }
  return times.map(p95);
}

function ensureSandbox() {
  if (existsSync(sandboxFile)) {
    const db = new Database(sandboxFile, { readonly: true });
    try {
      const meta = (key: string) =>
        (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
      if (Number(meta('collections')) > SCALE && Number(meta('seed_version')) === SEED_VERSION) return;
    } catch {
      // Seeded again below.
    } finally {
      db.close();
    }
  }
  console.log(`Seeding ${SCALE.toLocaleString('en')} collections (once; kept in ${sandboxFile})…`);
  createDatabase(sandboxFile, { collections: SCALE });
}

function dashboard(where: Record<string, string>, rps: string) {
  const child = runBin('next', ['start', '-p', String(PORT), '-H', '127.0.0.1'], {
    env: { ...env, ...where, INDEX_SYNC_RPS: rps, METRICS_TOKEN },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

async function ready() {
  await waitFor(`${base}/api/index/status`, 300_000);
  for (;;) {
    const { data } = await json<{ data: { state: string; indexed: number } }>('/api/index/status');
    if (data.state === 'ready') return data.indexed;
    if (data.state === 'error' || data.state === 'off') throw new Error(`index ${data.state}`);
    process.stdout.write(`\r  ${data.indexed.toLocaleString('en')} indexed…`);
    await sleep(2000);
  }
}

/** prom-client's event-loop delay since the last scrape (each scrape starts its histogram again), in ms. */
async function eventLoop(): Promise<{ p99: number; max: number }> {
  const text = await (
    await fetch(`${base}/api/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const value = (name: string) => Number(new RegExp(`^${name} ([\\d.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return {
    p99: round(value('nodejs_eventloop_lag_p99_seconds')),
    max: round(value('nodejs_eventloop_lag_max_seconds')),
  };
}

type Row = { id: string; reference: string; contact: { lastName: string } };
type Detail = {
  data: { status: string; metadata: unknown[]; events: unknown[]; payable: { methods: string[]; options: unknown[] } };
};

/** Two records of one shape (status, as many line items, events, methods and options): one gets the notes and tags. */
async function recordPair(): Promise<[Row, Row]> {
  const { data } = await json<{ data: Row[] }>('/api/collections?limit=60');
  const shapes = new Map<string, Row>();
  for (const row of data) {
    // A record an earlier run on this index noted is passed over.
    if ((await json<{ meta: { count: number } }>(`/api/collections/${row.id}/notes`)).meta.count) continue;
    const { data: d } = await json<Detail>(`/api/collections/${row.id}`);
    const shape = `${d.status}/${d.metadata.length}/${d.events.length}/${d.payable.methods.length}/${d.payable.options.length}`;
    const twin = shapes.get(shape);
    if (twin) return [twin, row];
    shapes.set(shape, row);
  }
  throw new Error('no two records of one shape among the first 60');
}

async function measure(store: string) {
  failed = {};
  const run = Date.now().toString(36);
  const tags = Array.from({ length: 5 }, (_, i) => `bench-${run}-${i + 1}`);
  for (const [i, name] of tags.entries())
    await json('/api/tags', { method: 'POST', body: { name, colour: ['red', 'blue', 'green', 'teal', 'pink'][i] } });

  // 1. A record with 20 notes and 5 tags, and its twin with none.
  const [noted, bare] = await recordPair();
  await json(`/api/collections/${noted.id}/tags`, { method: 'PUT', body: { tags } });
  for (let i = 0; i < 20; i++)
    await json(`/api/collections/${noted.id}/notes`, {
      method: 'POST',
      body: {
        text: `Called the customer (${i + 1}): paid by transfer, slip in ticket https://desk.example.com/t/${4400 + i}; owner informed, chase again on Friday.`,
      },
    });
  const [withNotes, without] = await sideBySide([`/collections/${noted.id}`, `/collections/${bare.id}`]);

  // 2. A tag on a status's rows: the list by the tag against the list by the status.
  const statuses = ['pending', 'completed', 'expired', 'cancelled', 'failed'];
  const sized = await Promise.all(statuses.map(async (status) => ({ status, n: await count(`status=${status}`) })));
  const { status, n } = sized.filter((s) => s.n <= BULK).sort((a, b) => b.n - a.n)[0]!;
  const held = `bench-${run}-held`;
  await json('/api/tags', { method: 'POST', body: { name: held } });
  const tagging = performance.now();
  const { data: tagged } = await json<{ data: { changed: number } }>(`/api/tags/${held}/collections`, {
    method: 'POST',
    body: { query: `status=${status}` },
  });
  const heldMs = performance.now() - tagging;
  const [tagPage, statusPage] = await sideBySide([`/collections?tag=${held}`, `/collections?status=${status}`]);
  const [tagApi, statusApi] = await sideBySide([`/api/collections?tag=${held}`, `/api/collections?status=${status}`]);

  // 3. The list, a search and a record while rows are tagged by a list state of up to BULK rows (completed ones
  // created from the earliest day that leaves at most BULK: counted from the roll-ups), against the same idle.
  const DAY = 86_400_000;
  let [lo, hi] = [Date.parse('1000-01-01'), Date.now() + DAY];
  const since = (ms: number) => `status=completed&createdFrom=${new Date(ms).toISOString().slice(0, 10)}`;
  while (hi - lo > DAY) {
    const mid = lo + Math.floor((hi - lo) / 2 / DAY) * DAY;
    if ((await count(since(mid))) <= BULK) hi = mid;
    else lo = mid;
  }
  const bulkQuery = since(hi);
  const pages = [
    '/collections?limit=25',
    `/search?q=${encodeURIComponent(bare.contact.lastName)}`,
    `/collections/${bare.id}`,
  ];
  const idle = await sideBySide(pages, 20);
  const during = pages.map(() => [] as number[]);
  const loop = { p99: 0, max: 0 };
  const bulkMs: number[] = [];
  let bulkRows = 0;
  // As many taggings of BULK rows (each a new tag: every row written) as it takes to ask each page 20 times.
  for (let k = 1; during[0]!.length < 20; k++) {
    const name = `bench-${run}-bulk-${k}`;
    await json('/api/tags', { method: 'POST', body: { name } });
    await eventLoop();
    const started = performance.now();
    let done = false;
    const bulk = json<{ data: { changed: number } }>(`/api/tags/${name}/collections`, {
      method: 'POST',
      body: { query: bulkQuery },
    }).then((answer) => {
      done = true;
      bulkMs.push(performance.now() - started);
      bulkRows = answer.data.changed;
    });
    // Each page at least once a tagging, however quick it is.
    do for (const [i, path] of pages.entries()) during[i]!.push(await timed(path));
    while (!done);
    await bulk;
    const lag = await eventLoop();
    loop.p99 = Math.max(loop.p99, lag.p99);
    loop.max = Math.max(loop.max, lag.max);
  }
  const busy = during.map(p95);
  console.log(`\n${store}: ${JSON.stringify({ withNotes, without, tagPage, statusPage, idle, busy, loop, bulkMs })}`);
  return {
    store,
    record: { notes: 20, tags: 5, withMs: withNotes!, withoutMs: without! },
    tagList: {
      status,
      rows: n,
      tagged: tagged.changed,
      taggingMs: Math.round(heldMs),
      page: [tagPage, statusPage],
      api: [tagApi, statusApi],
    },
    whileTagging: {
      rows: bulkRows,
      requests: bulkMs.length,
      requestMs: Math.round(percentile(bulkMs, 50)),
      pages: ['list', 'search', 'record'].map((what, i) => ({
        what,
        idleMs: idle[i]!,
        busyMs: busy[i]!,
        asked: during[i]!.length,
      })),
      eventLoopMs: loop,
    },
    failed,
  };
}

async function pass(store: 'SQLite' | 'PostgreSQL', where: Record<string, string>) {
  console.log(`\n${store}: syncing ${SCALE.toLocaleString('en')} collections…`);
  const syncing = dashboard(where, '1000');
  await ready();
  syncing.kill('SIGTERM');
  await exited(syncing);
  // Measured at the default sync pace, as users meet it.
  const served = dashboard(where, '5');
  const indexed = await ready();
  try {
    return { indexed, ...(await measure(store)) };
  } finally {
    served.kill('SIGTERM');
    await exited(served);
  }
}

ensureSandbox();
children.push(
  runBin('tsx', ['sandbox/main.ts'], {
    env: { ...env, SANDBOX_DB: sandboxFile },
    stdio: ['ignore', 'ignore', 'inherit'],
  }),
);
await waitFor(`http://127.0.0.1:${SANDBOX}/__sandbox/health`, 300_000);

const results = [];
const sqlitePath = resolve(`.data/bench-annotations-${SCALE}.sqlite`);
// BENCH_ANNOTATIONS_REUSE=1: SQLite's index of the last run, synced again only for what changed.
if (process.env.BENCH_ANNOTATIONS_REUSE !== '1')
  for (const suffix of ['', '-wal', '-shm']) rmSync(sqlitePath + suffix, { force: true });
results.push(await pass('SQLite', { INDEX_PATH: sqlitePath }));
if (postgresBinaries() && process.env.BENCH_ANNOTATIONS_POSTGRES !== '0') {
  const server = await startPostgres({ port: PG, settings: { fsync: 'on', ...SIZED_SETTINGS } });
  try {
    results.push(
      await pass('PostgreSQL', { DATABASE_URL: server.url, INDEX_PATH: resolve('.data/bench-annotations-pg') }),
    );
  } finally {
    await server.stop();
  }
} else console.log('PostgreSQL is not installed (or BENCH_ANNOTATIONS_POSTGRES=0): its pass is left out.');

const ratio = (a: number, b: number) => round(a / b, 2);
const file = {
  at: new Date().toISOString(),
  cores: cpus().length,
  node: process.version,
  scale: SCALE,
  rounds: ROUNDS,
  stores: results,
};
const lines = [
  `# Notes and tags at scale, ${file.at} (${file.cores} cores, ${file.node})`,
  '',
  `p95 of ${ROUNDS} rounds, the two pages of a row asked in turn; an index of ${SCALE.toLocaleString('en')} collections on each store.`,
  '',
  '| store | measure | figures | ratio | goal |',
  '|---|---|---|---|---|',
];
for (const r of results) {
  lines.push(
    `| ${r.store} | record page, 20 notes and 5 tags vs none | ${r.record.withMs} vs ${r.record.withoutMs} ms | ${ratio(r.record.withMs, r.record.withoutMs)}× | ≤ 1.1× |`,
    `| ${r.store} | list page by a tag of ${r.tagList.rows.toLocaleString('en')} rows vs by status ${r.tagList.status} | ${r.tagList.page[0]} vs ${r.tagList.page[1]} ms | ${ratio(r.tagList.page[0]!, r.tagList.page[1]!)}× | ≤ 1.2× |`,
    `| ${r.store} | /api/collections by that tag vs by the status | ${r.tagList.api[0]} vs ${r.tagList.api[1]} ms | ${ratio(r.tagList.api[0]!, r.tagList.api[1]!)}× | ≤ 1.2× |`,
    ...r.whileTagging.pages.map(
      (p) =>
        `| ${r.store} | ${p.what} page while ${r.whileTagging.rows.toLocaleString('en')} rows are tagged vs idle | ${p.busyMs} vs ${p.idleMs} ms (${p.asked} asked) | ${ratio(p.busyMs, p.idleMs)}× | ≤ 1.2× |`,
    ),
    `| ${r.store} | event-loop delay over the tagging, p99 / max | ${r.whileTagging.eventLoopMs.p99} / ${r.whileTagging.eventLoopMs.max} ms | | p99 ≤ 50 ms |`,
    `| ${r.store} | the bulk request itself, ${r.whileTagging.rows.toLocaleString('en')} rows (median of ${r.whileTagging.requests}) | ${r.whileTagging.requestMs} ms | | |`,
    `| ${r.store} | answers that were not a 200 | ${
      Object.entries(r.failed)
        .map(([k, n]) => `${k}: ${n}`)
        .join(', ') || 'none'
    } | | none |`,
  );
}
writeFileSync('bench/results-annotations.json', `${JSON.stringify(file, null, 2)}\n`);
writeFileSync('bench/results-annotations.md', `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
process.exit(0);
