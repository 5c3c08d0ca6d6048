/**
 * `npm run bench`: the dashboard against a bare Next.js app of the same
 * version (bench/floor), side by side in one run, on loopback. Every figure is
 * a ratio against the floor measured in the same run (interleaved A B A B), or
 * a CPU-time count. Prints a table; writes bench/results.json and bench/results.md.
 *
 *   BENCH_RUNS=20          loads per page for "rows visible" and "next page"
 *   BENCH_SCALE=1000000    collections in the scale test's sandbox
 *   BENCH_LIGHTHOUSE=5     Lighthouse runs per page and preset, interleaved, medians (0 to skip)
 *   BENCH_BEFORE=<git ref> also build that commit (a worktree in .data/bench-before) and
 *                          measure its first-load JS and rows visible in the same run,
 *                          interleaved with ours: what a change cost, side by side
 *   --index-only           only the search index at scale (scripts/bench-index.ts), on SQLite and PostgreSQL
 *   --postgres-only        with --index-only: PostgreSQL's pass alone
 *   --sqlite-only          with --index-only: SQLite's pass alone (BENCH_INDEX_REUSE=1: on the index the
 *                          last run synced, without the sync's figures)
 *   --pages-only           only first-load JS, rows visible and "Next page" (a few minutes)
 *   --with-lighthouse      with --pages-only: Lighthouse (scores and total blocking time) and CPU per
 *                          request too, beside BENCH_BEFORE's when given (no load test, no scale)
 */
import autocannon from 'autocannon';
import { chromium, type Browser } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { createDatabase } from '../sandbox/db';
import { SEED_VERSION } from '../sandbox/seed-data';
import pg from 'pg';
import { benchIndex } from './bench-index';
import { postgresBinaries, SIZED_SETTINGS, startPostgres } from './postgres-server';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';
import { firstLoadJs } from './first-load-js';
import { binPath, exited, runBin } from './run-bin.mjs';
import { serverPid, waitFor } from './server-processes';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const SCALE = Number(process.env.BENCH_SCALE ?? 1_000_000);
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE ?? 5);
const PORTS = {
  sandbox: 4610,
  ours: 3610,
  floor: 3620,
  bigSandbox: 4611,
  oursBig: 3611,
  before: 3630,
  metrics: 3640,
  index: [3612, 3613, 3614] as [number, number, number],
  postgres: 5610,
};
const FLOOR_DIR = resolve('.data/bench-floor');
const BEFORE = process.env.BENCH_BEFORE;
const BEFORE_DIR = resolve('.data/bench-before');
const children: ChildProcess[] = [];
const results: Record<string, unknown> = {
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version, date: new Date().toISOString() },
};
const rows: [string, string, string, string][] = [];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', LOG_LEVEL: 'warn' };

function row(name: string, ours: number, floor: number, unit: string) {
  const ratio = floor ? round(ours / floor, 2) : NaN;
  rows.push([name, `${round(ours)} ${unit}`, `${round(floor)} ${unit}`, `${ratio}×`]);
  results[name] = { ours, floor, ratio, unit };
  console.log(
    `${name.padEnd(44)} ours ${String(round(ours)).padStart(9)} ${unit.padEnd(5)} floor ${String(round(floor)).padStart(9)} ${unit.padEnd(5)} ${ratio}×`,
  );
}

function fact(name: string, value: number | string, unit = '') {
  rows.push([name, `${value} ${unit}`.trim(), '', '']);
  results[name] = { value, unit };
  console.log(`${name.padEnd(44)} ${value} ${unit}`);
}

/** `next` from the project's own node_modules: the floor must not mix the repo's Next with its own React. */
function runNext(cwd: string, args: string[], extra: Record<string, string> = {}) {
  return spawn(process.execPath, [join(cwd, 'node_modules/next/dist/bin/next'), ...args], {
    cwd,
    env: { ...env, ...extra },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function build(cwd: string) {
  if ((await exited(runNext(cwd, ['build']))) !== 0) throw new Error(`build failed in ${cwd}`);
}

/** The floor is copied out with hard-linked node_modules so Turbopack sees a project of its own. */
function prepareFloor() {
  rmSync(FLOOR_DIR, { recursive: true, force: true });
  mkdirSync(FLOOR_DIR, { recursive: true });
  for (const f of ['app', 'next.config.mjs', 'tsconfig.json'])
    cpSync(join('bench/floor', f), join(FLOOR_DIR, f), { recursive: true });
  writeFileSync(join(FLOOR_DIR, 'package.json'), '{"name":"floor","private":true,"type":"module"}\n');
  writeFileSync(
    join(FLOOR_DIR, 'package-lock.json'),
    '{"name":"floor","lockfileVersion":3,"requires":true,"packages":{}}\n',
  );
  try {
    execFileSync('cp', ['-al', 'node_modules', join(FLOOR_DIR, 'node_modules')]);
  } catch {
    cpSync('node_modules', join(FLOOR_DIR, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  }
}

function start(bin: string, args: string[], extra: Record<string, string>) {
  const child = runBin(bin, args, { env: { ...env, ...extra }, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  return child;
}

const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
};

/** What "visible" means: the Nth table row laid out, a heading with this text, or the first element `css` matches. */
type Ready = { rows: number } | { heading: string } | { css: string };

function readyAt(ready: Ready): number | false {
  if ('css' in ready) {
    const e = document.querySelector(ready.css);
    return e && e.getBoundingClientRect().height > 0 ? performance.now() : false;
  }
  if ('rows' in ready) {
    const r = document.querySelectorAll('main table tbody tr');
    return r.length >= ready.rows && r[ready.rows - 1]!.getBoundingClientRect().height > 0 ? performance.now() : false;
  }
  const h = [...document.querySelectorAll('h2')].find((e) => e.textContent === ready.heading);
  return h && h.getBoundingClientRect().height > 0 ? performance.now() : false;
}

/** Waits until a dashboard's index has synced (the pages served from it have their rows). */
async function indexReady(base: string) {
  for (let i = 0; i < 600; i++) {
    const status = (await (await fetch(`${base}/api/index/status`)).json()) as { data: { state: string } };
    if (status.data.state === 'ready') return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${base}: the index did not become ready`);
}

/** Milliseconds from navigation start until `ready` holds, cold context each time. */
async function visibleAt(browser: Browser, url: string, ready: Ready) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'commit' });
  // A function, not a string: the dashboard's CSP rightly forbids eval.
  const at = await page
    .waitForFunction(readyAt, ready, { polling: 'raf', timeout: 30_000 })
    .then((h) => h.jsonValue() as Promise<number>);
  await context.close();
  return at;
}

const rowsReady = (n: number): Ready => ({ rows: n });
const detailReady: Ready = { heading: 'Line items' };

async function interleaved(
  runs: number,
  a: () => Promise<number>,
  b: () => Promise<number>,
  c?: () => Promise<number>,
) {
  const all = c ? [a, b, c] : [a, b];
  const xs = all.map(() => [] as number[]);
  for (const f of all) await f(); // warm every server
  for (let i = 0; i < runs; i++) for (const [n, f] of all.entries()) xs[n]!.push(await f());
  return { ours: median(xs[0]!), floor: median(xs[1]!), before: c ? median(xs[2]!) : NaN };
}

/** The commit named by BENCH_BEFORE, checked out beside this one with hard-linked node_modules. */
function checkoutBefore(ref: string) {
  rmSync(BEFORE_DIR, { recursive: true, force: true });
  execFileSync('git', ['worktree', 'prune']);
  execFileSync('git', ['worktree', 'add', '--detach', '--force', BEFORE_DIR, ref], { stdio: 'ignore' });
  execFileSync('cp', ['-al', 'node_modules', join(BEFORE_DIR, 'node_modules')]);
}

async function cpuPerRequest(pid: number, url: string, amount: number) {
  await autocannon({ url, connections: 10, amount: 200 });
  const before = cpuMs(pid);
  const r = await autocannon({ url, connections: 10, amount });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return (cpuMs(pid) - before) / amount;
}

async function p50(url: string, amount = 1000) {
  const r = await autocannon({ url, connections: 1, amount });
  return r.latency.p50;
}

/** "Next page" click to new rows visible; with prefetch off the page-2 answer is held until the click. */
async function nextPage(browser: Browser, prefetch: boolean) {
  const context = await browser.newContext();
  const page = await context.newPage();
  let release: (() => void) | undefined;
  const held = new Promise<void>((r) => (release = r));
  if (!prefetch)
    await page.route(/\/api\/collections\?page=2&/, async (route) => {
      await held;
      await route.continue();
    });
  const requested = page.waitForRequest(/\/api\/collections\?page=2&/);
  const prefetched = prefetch ? page.waitForResponse(/\/api\/collections\?page=2&/) : null;
  await page.goto(`http://127.0.0.1:${PORTS.ours}/collections`);
  await page.locator('main table tbody tr').first().waitFor();
  // Prefetch on: its answer is in the cache before the click. Off: it is held until the click.
  await requested;
  if (prefetched) await prefetched;
  // Timed inside the page: from the click event to the frame after the first row changed.
  await page.evaluate(() => {
    const w = window as unknown as { clickAt?: number; paintedAt?: number };
    document.addEventListener('click', () => (w.clickAt = performance.now()), { capture: true, once: true });
    const body = document.querySelector('main table tbody')!;
    const before = body.querySelector('tr')?.textContent;
    const observer = new MutationObserver(() => {
      if (
        body.querySelector('tr')?.textContent === before ||
        body.closest('table')?.getAttribute('aria-busy') === 'true'
      )
        return;
      observer.disconnect();
      requestAnimationFrame(() => (w.paintedAt = performance.now()));
    });
    observer.observe(body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByRole('button', { name: 'Next page' }).click();
  release?.();
  const [at, clickAt] = await page
    .waitForFunction(() => {
      const w = window as unknown as { clickAt?: number; paintedAt?: number };
      return w.paintedAt && w.clickAt ? [w.paintedAt, w.clickAt] : false;
    })
    .then((h) => h.jsonValue() as Promise<[number, number]>);
  await context.close();
  return at - clickAt;
}

/** One Lighthouse run; its own runtime errors (NO_NAVSTART and the like, seen here now and then) get two more tries. */
function lighthouse(
  url: string,
  preset: 'mobile' | 'desktop',
  tries = 3,
): { performance: number; accessibility: number; tbt: number } {
  try {
    return lighthouseOnce(url, preset);
  } catch (error) {
    if (tries <= 1) throw error;
    console.warn(`Lighthouse failed on ${url} (${preset}); trying again`);
    return lighthouse(url, preset, tries - 1);
  }
}

function lighthouseOnce(url: string, preset: 'mobile' | 'desktop') {
  const flags =
    '--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking --disable-component-update --disable-sync --no-first-run';
  const args = [
    binPath('lighthouse'),
    url,
    `--chrome-flags=${flags}`,
    '--only-categories=performance,accessibility',
    '--output=json',
    '--quiet',
    ...(preset === 'desktop' ? ['--preset=desktop'] : []),
  ];
  const out = execFileSync(process.execPath, args, {
    env: { ...env, CHROME_PATH: chromiumPath() ?? '' },
    maxBuffer: 64 << 20,
  });
  const report = JSON.parse(out.toString()) as {
    categories: { performance: { score: number }; accessibility: { score: number } };
    audits: Record<string, { numericValue?: number }>;
  };
  return {
    performance: report.categories.performance.score * 100,
    accessibility: report.categories.accessibility.score * 100,
    tbt: report.audits['total-blocking-time']?.numericValue ?? NaN,
  };
}

async function scale(options: { indexOnly?: boolean } = {}) {
  const dbPath = resolve(`.data/bench-${SCALE}.sqlite`);
  const has =
    existsSync(dbPath) &&
    (() => {
      const db = new Database(dbPath, { readonly: true });
      try {
        const meta = (key: string) =>
          Number((db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string }).value);
        // Built by this seed version (else the sandbox would replace it with the small default set).
        return meta('collections') > SCALE && meta('seed_version') === SEED_VERSION;
      } catch {
        return false;
      } finally {
        db.close();
      }
    })();
  if (!has) {
    const t = performance.now();
    console.log(`Seeding ${SCALE.toLocaleString('en')} collections (once; kept in ${dbPath})…`);
    createDatabase(dbPath, { collections: SCALE });
    fact('scale: seeding time', round((performance.now() - t) / 1000), 's');
  }
  // Faults on for the index bench's test route that adds a collection (reserved pages are far past the data).
  const upstream = start('tsx', ['sandbox/main.ts'], {
    SANDBOX_PORT: String(PORTS.bigSandbox),
    SANDBOX_DB: dbPath,
    SANDBOX_FAULTS: '1',
  });
  await waitFor(`http://127.0.0.1:${PORTS.bigSandbox}/__sandbox/health`);
  const upstreamOf = { file: dbPath, pid: serverPid(upstream.pid!) };
  if (options.indexOnly) {
    await indexAtScale(upstreamOf);
    return upstreamOf;
  }
  // The live list's figures: no index syncing a million rows underneath them.
  start('next', ['start', '-p', String(PORTS.oursBig), '-H', '127.0.0.1'], {
    SANDBOX_PORT: String(PORTS.bigSandbox),
    INDEX: 'off',
  });
  await waitFor(`http://127.0.0.1:${PORTS.oursBig}/api/collections?limit=1`);
  const last = Math.ceil(
    (await (await fetch(`http://127.0.0.1:${PORTS.oursBig}/api/collections?limit=1`)).json()).meta.count / 10,
  );
  for (const [label, page] of [
    ['first', 1],
    ['middle', Math.ceil(last / 2)],
    ['last', last],
  ] as const) {
    const sandboxMs: number[] = [];
    const renderMs: number[] = [];
    for (let i = 0; i < 21; i++) {
      let t = performance.now();
      await (
        await fetch(`http://127.0.0.1:${PORTS.bigSandbox}/public/collections?page=${page}&limit=10`, {
          headers: { Authorization: 'Bearer sk_sandbox_demo' },
        })
      ).text();
      sandboxMs.push(performance.now() - t);
      t = performance.now();
      await (await fetch(`http://127.0.0.1:${PORTS.oursBig}/collections?page=${page}&limit=10`)).text();
      renderMs.push(performance.now() - t);
    }
    fact(`scale ${SCALE.toLocaleString('en')}: sandbox ${label} page (${page})`, round(median(sandboxMs), 2), 'ms');
    fact(`scale ${SCALE.toLocaleString('en')}: dashboard render ${label} page`, round(median(renderMs), 1), 'ms');
  }
  return upstreamOf;
}

/**
 * Metrics on (METRICS_TOKEN set) against off (ours, unset): CPU per request of a second dashboard of the same
 * build on the same sandbox, alternating rounds, medians. The goal: at most 0.3 ms a request.
 */
async function metricsCost(oursPid: number, O: string, detailId: string) {
  console.log('\nMetrics cost (CPU per request, metrics off vs on, 3 alternating rounds)');
  const token = 'bench-metrics-token-0123456789';
  const on = start('next', ['start', '-p', String(PORTS.metrics), '-H', '127.0.0.1'], {
    SANDBOX_PORT: String(PORTS.sandbox),
    API_BASE_URL: '',
    METRICS_TOKEN: token,
    INDEX_PATH: '.data/bench-index-metrics.sqlite',
  });
  const M = `http://127.0.0.1:${PORTS.metrics}`;
  await waitFor(`${M}/api/collections?limit=1`);
  const onPid = serverPid(on.pid!);
  for (const [name, path] of [
    ['CPU/request /api/collections/{id}, metrics on vs off', `/api/collections/${detailId}`],
    ['CPU/request /api/collections?limit=100, metrics on vs off', '/api/collections?limit=100'],
  ] as const) {
    const offs: number[] = [];
    const ons: number[] = [];
    for (let round = 0; round < 3; round++) {
      offs.push(await cpuPerRequest(oursPid, `${O}${path}`, 1000));
      ons.push(await cpuPerRequest(onPid, `${M}${path}`, 1000));
    }
    row(name, median(ons), median(offs), 'ms');
    fact(`${name}: added`, round(median(ons) - median(offs), 3), 'ms');
  }
  const scraped = await fetch(`${M}/api/metrics`, { headers: { Authorization: `Bearer ${token}` } });
  fact('metrics scrape size', (await scraped.text()).length, 'B');
  on.kill('SIGTERM');
}

/**
 * The load test (scripts/load-test.ts: 2 rounds of 10,000 list and 10,000 detail requests at 50 connections,
 * its own sandbox and dashboard): peak RSS in each round, RSS after each, and whether its rules held.
 */
function loadTest() {
  console.log('\nLoad test (4 × 10,000 requests at 50 connections; its own servers)');
  const out = resolve('.data/bench-load.json');
  rmSync(out, { force: true });
  try {
    execFileSync(process.execPath, [binPath('tsx'), 'scripts/load-test.ts'], {
      env: { ...env, LOAD_TEST_OUT: out },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch {
    // Its rules are reported below; the figures are still worth having.
  }
  if (!existsSync(out)) throw new Error('the load test wrote no figures');
  const { results: r, failures } = JSON.parse(readFileSync(out, 'utf8')) as {
    results: { baselineRssMb: number; peakRssMbByRound: number[]; afterRoundsRssMb: number[] };
    failures: string[];
  };
  fact('load test: RSS baseline', r.baselineRssMb, 'MB');
  fact('load test: peak RSS round 1 / round 2', r.peakRssMbByRound.join(' / '), 'MB');
  fact('load test: RSS after round 1 / round 2', r.afterRoundsRssMb.join(' / '), 'MB');
  fact('load test: rules', failures.length ? failures.join('; ') : 'all held');
}

/** What the audit log costs a request and the event loop (scripts/bench-audit.ts, the real writer on SQLite). */
function auditCost() {
  console.log('\nAudit log (20,000 entries, batches of 500) and the drift collector');
  const tsx = binPath('tsx');
  const out = execFileSync(process.execPath, [tsx, '--conditions=react-server', 'scripts/bench-audit.ts'], {
    env,
  }).toString();
  const r = JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
  fact(
    'audit: a request queues its entry, p50 / p99',
    `${round(r.recordP50Ms! * 1000, 1)} / ${round(r.recordP99Ms! * 1000, 1)}`,
    'µs',
  );
  fact(
    'audit: writing a batch of 500, p50 / p99',
    `${round(r.flush500P50Ms!, 2)} / ${round(r.flush500P99Ms!, 2)}`,
    'ms',
  );
  fact(
    'drift collector: a 100-record list page, p50 / p99',
    `${round(r.drift100P50Ms!, 3)} / ${round(r.drift100P99Ms!, 3)}`,
    'ms',
  );
}

async function indexAtScale(upstream: { file: string; pid: number }) {
  const both = { sandboxPort: PORTS.bigSandbox, upstream, ports: PORTS.index, env, report: { fact, row }, children };
  if (!process.argv.includes('--postgres-only')) {
    console.log(`\nSearch index on SQLite (${SCALE.toLocaleString('en')} collections)`);
    await benchIndex(both);
  }
  if (process.argv.includes('--sqlite-only')) return;
  // The same figures with the index on PostgreSQL (several replicas' store), when it is installed here.
  if (!postgresBinaries()) {
    console.log('\nPostgreSQL is not installed: its index figures are left out (apt-get install postgresql).');
    return;
  }
  console.log(`\nSearch index on PostgreSQL (${SCALE.toLocaleString('en')} collections)`);
  // Sized for this machine's 24 GiB as an operator would size a dedicated server: a quarter for buffers,
  // room to sort and build indexes, checkpoints spread out; durability as shipped (fsync on).
  const server = await startPostgres({
    port: PORTS.postgres,
    settings: { fsync: 'on', ...SIZED_SETTINGS },
  });
  try {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('create database console_paced');
    await benchIndex({
      ...both,
      store: {
        kind: 'postgres',
        url: server.url,
        pacedUrl: server.url.replace(/\/console$/, '/console_paced'),
        sizeBytes: async () =>
          Number((await admin.query('select pg_database_size(current_database()) as n')).rows[0].n),
      },
    });
    await admin.end();
  } finally {
    await server.stop();
  }
}

async function main() {
  if (process.argv.includes('--index-only')) {
    console.log('Building the dashboard…');
    await build(resolve('.'));
    await scale({ indexOnly: true });
    return report();
  }
  console.log('Building the dashboard and the floor…');
  await build(resolve('.'));
  prepareFloor();
  await build(FLOOR_DIR);
  if (BEFORE) {
    console.log(`Building ${BEFORE} (BENCH_BEFORE)…`);
    checkoutBefore(BEFORE);
    await build(BEFORE_DIR);
  }

  start('tsx', ['sandbox/main.ts'], { SANDBOX_PORT: String(PORTS.sandbox), SANDBOX_DB: '.data/bench-sandbox.sqlite' });
  const ours = start('next', ['start', '-p', String(PORTS.ours), '-H', '127.0.0.1'], {
    SANDBOX_PORT: String(PORTS.sandbox),
    API_BASE_URL: '',
  });
  const floor = runNext(FLOOR_DIR, ['start', '-p', String(PORTS.floor), '-H', '127.0.0.1'], {
    SANDBOX_PORT: String(PORTS.sandbox),
  });
  children.push(floor);
  const before = BEFORE
    ? runNext(BEFORE_DIR, ['start', '-p', String(PORTS.before), '-H', '127.0.0.1'], {
        SANDBOX_PORT: String(PORTS.sandbox),
        API_BASE_URL: '',
        INDEX_PATH: join(BEFORE_DIR, '.data/bench-index.sqlite'),
      })
    : null;
  if (before) children.push(before);
  await waitFor(`http://127.0.0.1:${PORTS.sandbox}/__sandbox/health`);
  if (BEFORE) await waitFor(`http://127.0.0.1:${PORTS.before}/api/collections?limit=1`);
  await waitFor(`http://127.0.0.1:${PORTS.ours}/api/collections?limit=1`);
  await waitFor(`http://127.0.0.1:${PORTS.floor}/api/collections?limit=1`);
  const oursPid = serverPid(ours.pid!);
  const floorPid = serverPid(floor.pid!);
  const beforePid = before ? serverPid(before.pid!) : null;
  const fixtures = (await (await fetch(`http://127.0.0.1:${PORTS.sandbox}/__sandbox/fixtures`)).json()) as {
    accounts: {
      examples: Record<string, string>;
      contacts: Record<string, { reference: string }>;
      searchQuery?: string;
    }[];
  };
  // A reference prefix shared by many collections: a full first page of search results.
  fixtures.accounts[0]!.searchQuery = Object.values(fixtures.accounts[0]!.contacts)[0]!.reference.slice(0, 4);
  const detailId = fixtures.accounts[0]!.examples.multipleLineItems!;
  const O = `http://127.0.0.1:${PORTS.ours}`;
  const F = `http://127.0.0.1:${PORTS.floor}`;
  const B = `http://127.0.0.1:${PORTS.before}`;
  /** "before" beside ours, against the floor, and ours over before: what the change cost. */
  const beside = (name: string, ours: number, before: number, floor: number, unit: string) => {
    if (!BEFORE) return;
    row(`${name}, before (${BEFORE})`, before, floor, unit);
    fact(`${name}, ours / before`, `${round(ours / before, 3)}×`);
  };

  const executablePath = chromiumPath();
  const browser = await chromium.launch({ executablePath, args: executablePath ? CHROMIUM_ARGS : [] });

  console.log('\nFirst-load JS (gzip)');
  const floorJs = (await firstLoadJs(browser, `${F}/?limit=100`)).gzip;
  const js = async (base: string, path: string) => (await firstLoadJs(browser, `${base}${path}`)).gzip;
  // The index-served pages need the (small) sandbox indexed first.
  await indexReady(O);
  const searchQ = fixtures.accounts[0]!.searchQuery!;
  const filtered = '/collections?status=pending&limit=100';
  const filteredRows = Math.min(
    100,
    ((await (await fetch(`${O}/api/collections?status=pending&limit=100`)).json()) as { data: unknown[] }).data.length,
  );
  const searchPath = `/search?${new URLSearchParams({ q: searchQ })}`;
  for (const [name, path] of [
    ['first-load JS /collections', '/collections?limit=100'],
    ['first-load JS /collections/{id}', `/collections/${detailId}`],
    ['first-load JS /search', searchPath],
    ['first-load JS /overview', '/overview'],
    ['first-load JS /collections filtered', filtered],
  ] as const) {
    const ours = await js(O, path);
    row(name, ours, floorJs, 'B');
    if (BEFORE) beside(name, ours, await js(B, path), floorJs, 'B');
  }

  console.log(`\nRows visible (median of ${RUNS}, cold context, interleaved)`);
  const list = await interleaved(
    RUNS,
    () => visibleAt(browser, `${O}/collections?limit=100`, rowsReady(100)),
    () => visibleAt(browser, `${F}/?limit=100`, rowsReady(100)),
    BEFORE ? () => visibleAt(browser, `${B}/collections?limit=100`, rowsReady(100)) : undefined,
  );
  row('rows visible /collections?limit=100', list.ours, list.floor, 'ms');
  beside('rows visible /collections?limit=100', list.ours, list.before, list.floor, 'ms');
  const detail = await interleaved(
    RUNS,
    () => visibleAt(browser, `${O}/collections/${detailId}`, detailReady),
    () => visibleAt(browser, `${F}/?limit=10`, rowsReady(10)),
    BEFORE ? () => visibleAt(browser, `${B}/collections/${detailId}`, detailReady) : undefined,
  );
  row('main content visible /collections/{id}', detail.ours, detail.floor, 'ms');
  beside('main content visible /collections/{id}', detail.ours, detail.before, detail.floor, 'ms');

  // The pages users reach beyond the list: search results, the overview's first currency, a filtered list.
  for (const [name, path, ready, floorReady] of [
    ['first result visible /search', searchPath, rowsReady(1), rowsReady(1)],
    ['first currency visible /overview', '/overview', { css: 'main section h2' }, rowsReady(10)],
    [`rows visible ${filtered}`, filtered, rowsReady(filteredRows), rowsReady(filteredRows)],
  ] as const) {
    const r = await interleaved(
      RUNS,
      () => visibleAt(browser, `${O}${path}`, ready),
      () => visibleAt(browser, `${F}/?limit=${'rows' in floorReady ? Math.max(10, floorReady.rows) : 10}`, floorReady),
    );
    row(name, r.ours, r.floor, 'ms');
  }

  console.log(`\n"Next page" click to new rows (median of ${RUNS})`);
  const next = await interleaved(
    RUNS,
    () => nextPage(browser, true),
    () => nextPage(browser, false),
  );
  fact('next page visible, prefetch on', round(next.ours), 'ms');
  fact('next page visible, prefetch off', round(next.floor), 'ms');
  await browser.close();
  auditCost();
  const pagesOnly = process.argv.includes('--pages-only');
  if (pagesOnly && !process.argv.includes('--with-lighthouse')) return report();

  if (LIGHTHOUSE_RUNS > 0) {
    // Before the load tests (they leave both servers with grown heaps), and interleaved like every other figure.
    console.log(`\nLighthouse (median of ${LIGHTHOUSE_RUNS}, interleaved)`);
    for (const preset of ['mobile', 'desktop'] as const) {
      const filtered = '/collections?status=pending&limit=100';
      const pages: (readonly [string, string])[] = [
        ['/collections', `${O}/collections`],
        ['/collections/{id}', `${O}/collections/${detailId}`],
        ['/collections?<filters>', `${O}${filtered}`],
        ...(BEFORE
          ? ([
              ['before /collections', `${B}/collections`],
              ['before /collections/{id}', `${B}/collections/${detailId}`],
              ['before /collections?<filters>', `${B}${filtered}`],
            ] as const)
          : []),
        ['floor', `${F}/?limit=100`],
      ];
      const runs = pages.map(() => [] as { performance: number; accessibility: number; tbt: number }[]);
      for (let i = 0; i < LIGHTHOUSE_RUNS; i++) pages.forEach(([, url], n) => runs[n]!.push(lighthouse(url, preset)));
      const score = (n: number, key: 'performance' | 'accessibility' | 'tbt') => median(runs[n]!.map((r) => r[key]));
      const floorAt = pages.length - 1;
      pages.slice(0, floorAt).forEach(([name], n) => {
        // The goals: at least the floor's score less 5, total blocking time at most twice the floor's.
        row(`lighthouse ${preset} performance ${name}`, score(n, 'performance'), score(floorAt, 'performance'), 'pts');
        fact(
          `lighthouse ${preset} performance ${name}, ours − floor`,
          score(n, 'performance') - score(floorAt, 'performance'),
        );
        row(`lighthouse ${preset} total blocking time ${name}`, score(n, 'tbt'), score(floorAt, 'tbt'), 'ms');
        row(
          `lighthouse ${preset} accessibility ${name}`,
          score(n, 'accessibility'),
          score(floorAt, 'accessibility'),
          'pts',
        );
      });
    }
  }

  console.log('\nProxy cost (CPU per request of the server process; added p50 at one connection)');
  const sandboxList = `http://127.0.0.1:${PORTS.sandbox}/public/collections?limit=100`;
  row(
    'CPU/request /api/collections?limit=100',
    await cpuPerRequest(oursPid, `${O}/api/collections?limit=100`, 2000),
    await cpuPerRequest(floorPid, `${F}/api/collections?limit=100`, 2000),
    'ms',
  );
  row(
    'CPU/request /api/collections/{id}',
    await cpuPerRequest(oursPid, `${O}/api/collections/${detailId}`, 2000),
    await cpuPerRequest(floorPid, `${F}/api/collections?limit=1`, 2000),
    'ms',
  );
  if (beforePid) {
    // Before beside ours, interleaved (ours, before, ours, before…: medians of 5 rounds of 1,000), so
    // neither pays for running second: what the change cost in server CPU.
    for (const [name, ourUrl, beforeUrl] of [
      ['/api/collections?limit=100', `${O}/api/collections?limit=100`, `${B}/api/collections?limit=100`],
      ['/api/collections/{id}', `${O}/api/collections/${detailId}`, `${B}/api/collections/${detailId}`],
    ] as const) {
      const xs: [number[], number[]] = [[], []];
      for (let round = 0; round < 5; round++) {
        xs[0].push(await cpuPerRequest(oursPid, ourUrl, 1000));
        xs[1].push(await cpuPerRequest(beforePid, beforeUrl, 1000));
      }
      fact(
        `CPU/request ${name}, ours / before (interleaved)`,
        `${round(median(xs[0]), 2)} / ${round(median(xs[1]), 2)} ms = ${round(median(xs[0]) / median(xs[1]), 3)}×`,
      );
    }
  }
  if (pagesOnly) return report();
  const direct = await new Promise<number>((res) => {
    autocannon(
      { url: sandboxList, connections: 1, amount: 1000, headers: { Authorization: 'Bearer sk_sandbox_demo' } },
      (_e, r) => res(r.latency.p50),
    );
  });
  const oursP50 = await p50(`${O}/api/collections?limit=100`);
  const floorP50 = await p50(`${F}/api/collections?limit=100`);
  fact('sandbox p50, 100-item page, direct', direct, 'ms');
  row('added p50 over the sandbox, limit=100', oursP50 - direct, floorP50 - direct, 'ms');

  await metricsCost(oursPid, O, detailId);
  loadTest();

  if (SCALE > 0) {
    console.log(`\nScale (${SCALE.toLocaleString('en')} collections; median of 21)`);
    await indexAtScale(await scale());
  }
  // Several accounts side by side (its own servers, after these are stopped): bench/results-accounts.*.
  if (process.env.BENCH_ACCOUNTS !== '0') {
    console.log('\nSeveral accounts (scripts/bench-accounts.ts)');
    execFileSync(process.execPath, [resolve('node_modules/tsx/dist/cli.mjs'), 'scripts/bench-accounts.ts'], {
      stdio: 'inherit',
    });
  }

  // Notes and tags at scale, on both stores (its own servers and indexes): bench/results-annotations.*.
  if (process.env.BENCH_ANNOTATIONS !== '0') {
    console.log('\nNotes and tags (scripts/bench-annotations.ts)');
    execFileSync(process.execPath, [resolve('node_modules/tsx/dist/cli.mjs'), 'scripts/bench-annotations.ts'], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_SCALE: String(SCALE) },
    });
  }

  report();
}

/**
 * bench/results.{json,md}; a --pages-only run writes bench/results-pages.*, an --index-only run
 * bench/results-index.*, and leave the full run's alone.
 */
function report() {
  const out = process.argv.includes('--pages-only')
    ? 'bench/results-pages'
    : process.argv.includes('--index-only')
      ? 'bench/results-index'
      : 'bench/results';
  writeFileSync(`${out}.json`, JSON.stringify(results, null, 2));
  const md = [
    '| measure | ours | floor | ratio |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
  writeFileSync(
    `${out}.md`,
    `# Benchmark results\n\n${(results.machine as { cpus: number }).cpus} cores, Node ${process.version}, ${new Date().toISOString()}\n\n${md}\n`,
  );
  console.log(`\nWrote ${out}.json and ${out}.md`);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill('SIGTERM');
  });
