/**
 * `npm run bench:overview`: the `/overview` page's server render at 1,000,000 collections, this tree beside the
 * tree before a change, in one run on one index: each page is asked of both servers in turn (A B, then B A), and
 * a figure is the ratio of the two medians, never a time compared across runs. Also each page's HTML bytes and
 * its height at 1280×800 in Chromium.
 *
 *   BENCH_BEFORE=<ref>             the tree to measure beside (a worktree in .data/bench-before-overview), or
 *   BENCH_BEFORE_DIR=<path>        a checkout of it that already has node_modules
 *   BENCH_SCALE=1000000            collections in the sandbox (seeded once, kept as .data/bench-<n>.sqlite)
 *   BENCH_OVERVIEW_ROUNDS=30       rounds; each asks every page once of each tree
 *   BENCH_OVERVIEW_PORTS=3650,3651,4650   ours, before, the sandbox
 *   BENCH_OVERVIEW_NO_BUILD=1      use the trees' existing builds
 *
 * The index is synced once, unpaced, into .data/bench-overview-<n>.sqlite and kept; both servers then read it
 * (the index is made for several replicas) syncing at 1 page a second, so the sync hardly runs beside the
 * measure. Writes bench/results-overview.{json,md}.
 */
import { chromium } from '@playwright/test';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { createDatabase } from '../sandbox/db';
import { SEED_VERSION } from '../sandbox/seed-data';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';
import { exited, runBin } from './run-bin.mjs';
import { readWhole, sleep, waitFor } from './server-processes';

const SCALE = Number(process.env.BENCH_SCALE ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_OVERVIEW_ROUNDS ?? 30);
const [OURS, BEFORE_PORT, SANDBOX] = (process.env.BENCH_OVERVIEW_PORTS ?? '3650,3651,4650').split(',').map(Number) as [
  number,
  number,
  number,
];
const BEFORE = process.env.BENCH_BEFORE;
const sandboxFile = resolve(`.data/bench-${SCALE}.sqlite`);
const indexFile = resolve(`.data/bench-overview-${SCALE}.sqlite`);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', LOG_LEVEL: 'warn', SANDBOX_PORT: String(SANDBOX) };
const children: ChildProcess[] = [];
const stopAll = () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM'));
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** The sandbox's file of SCALE collections by this seed's version, seeded when absent or older. */
function ensureSandbox() {
  let ok = false;
  if (existsSync(sandboxFile)) {
    const db = new Database(sandboxFile, { readonly: true });
    try {
      const meta = (key: string) =>
        (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string })?.value;
      ok = Number(meta('collections')) > SCALE && Number(meta('seed_version')) === SEED_VERSION;
    } catch {
      ok = false;
    } finally {
      db.close();
    }
  }
  if (ok) return;
  console.log(`Seeding ${SCALE.toLocaleString('en')} collections (once; kept in ${sandboxFile})…`);
  createDatabase(sandboxFile, { collections: SCALE });
}

/** The before tree: BENCH_BEFORE_DIR as it is, or BENCH_BEFORE's commit checked out beside this one. */
function beforeTree(): string {
  if (process.env.BENCH_BEFORE_DIR) return resolve(process.env.BENCH_BEFORE_DIR);
  if (!BEFORE) throw new Error('Set BENCH_BEFORE=<ref> or BENCH_BEFORE_DIR=<checkout>: the page to measure beside');
  const dir = resolve('.data/bench-before-overview');
  if (existsSync(dir)) execFileSync('git', ['worktree', 'remove', '--force', dir]);
  execFileSync('git', ['worktree', 'add', '--detach', dir, BEFORE], { stdio: 'ignore' });
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** `next` from the tree's own node_modules, run in that tree. */
function next(cwd: string, args: string[], extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, [join(cwd, 'node_modules/next/dist/bin/next'), ...args], {
    cwd,
    env: { ...env, ...extra },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

type Status = { state: string; indexed: number };
const status = async (base: string) =>
  ((await (await fetch(`${base}/api/index/status`)).json()) as { data: Status }).data;

/** Until the index at `base` is ready. */
async function ready(base: string) {
  await waitFor(`${base}/api/index/status`, 300_000);
  for (let last = await status(base); last.state !== 'ready'; last = await status(base)) {
    if (last.state === 'error' || last.state === 'off') throw new Error(`index ${last.state}`);
    process.stdout.write(`\r  ${last.indexed.toLocaleString('en')} indexed…`);
    await sleep(2000);
  }
  process.stdout.write('\n');
}

async function timed(url: string): Promise<{ ms: number; bytes: number }> {
  const t = performance.now();
  const res = await fetch(url);
  const body = await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return { ms: performance.now() - t, bytes: body.byteLength };
}

/** The page's height at 1280×800 in Chromium, in CSS pixels. */
async function heights(urls: string[]): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const out: number[] = [];
  for (const url of urls) {
    await page.goto(url, { waitUntil: 'networkidle' });
    out.push(await page.evaluate(() => document.documentElement.scrollHeight));
  }
  await browser.close();
  return out;
}

ensureSandbox();
const before = beforeTree();
if (process.env.BENCH_OVERVIEW_NO_BUILD !== '1')
  for (const tree of [process.cwd(), before]) {
    console.log(`Building ${tree}…`);
    if ((await exited(next(tree, ['build']))) !== 0) throw new Error(`build failed in ${tree}`);
  }
console.log(`Reading the sandbox's file into the OS cache: ${await readWhole(sandboxFile)} s`);
children.push(
  runBin('tsx', ['sandbox/main.ts'], {
    env: { ...env, SANDBOX_DB: sandboxFile },
    stdio: ['ignore', 'ignore', 'inherit'],
  }),
);
await waitFor(`http://127.0.0.1:${SANDBOX}/__sandbox/health`, 300_000);

const ours = `http://127.0.0.1:${OURS}`;
const then = `http://127.0.0.1:${BEFORE_PORT}`;
const start = (tree: string, port: number, rps: string) =>
  next(tree, ['start', '-p', String(port), '-H', '127.0.0.1'], { INDEX_PATH: indexFile, INDEX_SYNC_RPS: rps });

// The index, synced once (kept for the next run): unpaced, by this tree's server alone.
{
  console.log(`Syncing the index into ${indexFile} (kept for the next run)…`);
  const syncing = start(process.cwd(), OURS, '1000');
  await ready(ours);
  syncing.kill('SIGTERM');
  await exited(syncing);
}
start(process.cwd(), OURS, '1');
start(before, BEFORE_PORT, '1');
await Promise.all([ready(ours), ready(then)]);
const { indexed } = await status(ours);

// The top currency of today's answer: its detail page is measured too.
const top = ((await (await fetch(`${ours}/api/overview`)).json()) as { data: { currencies: { currency: string }[] } })
  .data.currencies[0]!.currency;
const pages: { name: string; ours: string; before: string }[] = [
  { name: 'default page (30 days)', ours: '/overview', before: '/overview' },
  { name: 'all time', ours: '/overview?range=all', before: '/overview?range=all' },
  {
    name: `one currency's cards and charts (${top}, 30 days), vs today's page`,
    ours: `/overview?currency=${top}`,
    before: '/overview',
  },
];
const times = new Map<string, number[]>();
const bytes = new Map<string, number>();
const servers: [string, string, 'ours' | 'before'][] = [
  ['ours', ours, 'ours'],
  ['before', then, 'before'],
];
// Warm-up: each server compiles its code and reads the index's pages once.
for (const p of pages) for (const [, base, which] of servers) for (let i = 0; i < 3; i++) await timed(base + p[which]);
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 ? [...servers].reverse() : servers;
  for (const p of pages)
    for (const [name, base, which] of order) {
      const { ms, bytes: b } = await timed(base + p[which]);
      const key = `${name}\t${p.name}`;
      times.set(key, [...(times.get(key) ?? []), ms]);
      bytes.set(key, b);
    }
}
const [oursTall, beforeTall] = [
  await heights(pages.map((p) => ours + p.ours)),
  await heights(pages.map((p) => then + p.before)),
];

const rows = pages.map((p, i) => {
  const of = (name: string) => times.get(`${name}\t${p.name}`)!;
  const [o, b] = [median(of('ours')), median(of('before'))];
  return {
    page: p.name,
    ours: p.ours,
    before: p.before,
    oursMedianMs: round(o),
    beforeMedianMs: round(b),
    ratio: round(o / b, 2),
    oursP95Ms: round(percentile(of('ours'), 95)),
    beforeP95Ms: round(percentile(of('before'), 95)),
    oursKiB: round(bytes.get(`ours\t${p.name}`)! / 1024, 0),
    beforeKiB: round(bytes.get(`before\t${p.name}`)! / 1024, 0),
    oursHeightPx: oursTall[i]!,
    beforeHeightPx: beforeTall[i]!,
  };
});
stopAll();

const at = new Date().toISOString();
// The tree before as its commit, whichever way it was given.
const label = execFileSync('git', ['-C', before, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
writeFileSync(
  resolve('bench/results-overview.json'),
  `${JSON.stringify({ at, cores: cpus().length, node: process.version, indexed, before: label, rounds: ROUNDS, rows }, null, 2)}\n`,
);
const md = [
  '# The overview at 1,000,000 collections, side by side',
  '',
  `${cpus().length} cores, Node ${process.version}, ${indexed.toLocaleString('en')} collections indexed, ${at}; ` +
    `${ROUNDS} rounds, each page asked of each tree in turn (order swapped every round). Server render: the whole ` +
    'HTML answer over loopback. Height: the page at 1280×800 in Chromium.',
  '',
  `| page | ours median ms | before (${label}) median ms | ratio | p95 ours / before ms | HTML KiB ours / before | height px ours / before |`,
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.page} | ${r.oursMedianMs} | ${r.beforeMedianMs} | ${r.ratio}× | ${r.oursP95Ms} / ${r.beforeP95Ms} | ` +
      `${r.oursKiB} / ${r.beforeKiB} | ${r.oursHeightPx.toLocaleString('en')} / ${r.beforeHeightPx.toLocaleString('en')} |`,
  ),
  '',
];
writeFileSync(resolve('bench/results-overview.md'), md.join('\n'));
console.log(md.join('\n'));
process.exit(0);
