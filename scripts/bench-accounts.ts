/**
 * Several accounts side by side (issue 76), one run, this build (`next build` first):
 *
 * - one account alone: a small account (the sandbox's `other`, 24 collections) on a dashboard of its own;
 * - ten accounts: the same small account beside BENCH_ACCOUNTS_BIG (9) accounts of BENCH_ACCOUNTS_ROWS
 *   (100,000) collections each, measured while their first syncs run.
 *
 * - one big account alone in its first sync, against the same account among the ten (the same sync budget).
 *
 * Each phase measures the small account's freshness (a collection added upstream until a search finds it), its
 * list, search and record pages (server render, median), and a record of another account: a plain 403 alone,
 * the owner hint with ten. Written to bench/results-accounts.json and .md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { createDatabase } from '../sandbox/db';
import { SEED_VERSION, type SeedAccount } from '../sandbox/seed-data';
import { exited, runBin } from './run-bin.mjs';
import { sleep, waitFor } from './server-processes';

const BIG = Number(process.env.BENCH_ACCOUNTS_BIG ?? 9);
const ROWS = Number(process.env.BENCH_ACCOUNTS_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ACCOUNTS_ROUNDS ?? 20);
const FRESH_ROUNDS = Number(process.env.BENCH_ACCOUNTS_FRESH_ROUNDS ?? 5);
const [PORT, SANDBOX] = (process.env.BENCH_ACCOUNTS_PORTS ?? '3960,4960').split(',').map(Number) as [number, number];
const sandboxFile = resolve(`.data/bench-accounts-${BIG}x${ROWS}.sqlite`);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', LOG_LEVEL: 'warn', SANDBOX_PORT: String(SANDBOX) };
const base = `http://127.0.0.1:${PORT}`;
const upstream = `http://127.0.0.1:${SANDBOX}`;
const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));

const big: SeedAccount[] = Array.from({ length: BIG }, (_, i) => ({
  id: `acc_bench_${i + 1}`,
  name: `Bench ${i + 1}`,
  key: `sk_sandbox_bench_${i + 1}`,
  collections: ROWS,
  nonIntegrated: 0,
  providers: 2,
}));

function ensureSandbox() {
  if (existsSync(sandboxFile)) {
    const db = new Database(sandboxFile, { readonly: true });
    const version = (db.prepare("SELECT value FROM meta WHERE key = 'seed_version'").get() as { value: string })?.value;
    db.close();
    if (Number(version) === SEED_VERSION) return;
  }
  console.log(`Seeding ${BIG} accounts of ${ROWS.toLocaleString('en')} collections (once; kept in ${sandboxFile})…`);
  createDatabase(sandboxFile, { extraAccounts: big });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)]! * 10) / 10;
};
const timed = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
const page = (path: string) => fetch(`${base}${path}`).then((r) => r.text().then(() => r.status));
const json = async <T>(path: string) => (await (await fetch(`${base}${path}`)).json()) as T;
const ids = async (key: string) =>
  (
    (await (
      await fetch(`${upstream}/public/collections?limit=5`, { headers: { Authorization: `Bearer ${key}` } })
    ).json()) as {
      data: { id: string; reference: string; contact: { lastName: string } }[];
    }
  ).data;

function dashboard(accounts: object[], indexPath: string) {
  for (const suffix of ['', '-wal', '-shm']) rmSync(indexPath + suffix, { force: true });
  const child = spawn(
    process.execPath,
    ['node_modules/next/dist/bin/next', 'start', '-p', String(PORT), '-H', '127.0.0.1'],
    {
      env: { ...env, API_KEY: '', ACCOUNTS: JSON.stringify(accounts), INDEX_PATH: indexPath, INDEX_POLL_S: '2' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  children.push(child);
  return child;
}

const small = { id: 'other', name: 'Other Business Ltd', key: 'sk_sandbox_other', mode: 'test' };
const bigOne = { id: 'bench-1', name: big[0]!.name, key: big[0]!.key, mode: 'live' };
type Account = typeof small;

/** An account's list, search and record pages (median), and a record of another account (`foreign`). */
async function pagesOf(account: Account, foreign: string) {
  const [first] = await ids(account.key);
  const q = encodeURIComponent(first!.contact.lastName);
  const at = `account=${account.id}`;
  // Warm each page once (the build's first render of a route compiles nothing, but fills caches).
  for (const path of [`/collections?${at}`, `/search?q=${q}&${at}`, `/collections/${first!.id}?${at}`])
    await page(path);
  const pages: Record<string, number> = {};
  for (const [name, path] of [
    ['list', `/collections?${at}&limit=25`],
    ['search', `/search?q=${q}&${at}`],
    ['record', `/collections/${first!.id}?${at}`],
    ['another account’s record', `/collections/${foreign}?${at}`],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) times.push(await timed(() => page(path)));
    pages[name] = median(times);
  }
  return pages;
}

/** A big account's pages while its first sync runs (its index has rows, and is not yet complete). */
async function measureBig(label: string, foreign: string) {
  await waitFor(`${base}/api/health`);
  for (;;) {
    const { data } = await json<{ data?: { state: string; indexed: number } }>(
      `/api/index/status?account=${bigOne.id}`,
    );
    if (data && data.indexed >= 5_000) break;
    await sleep(250);
  }
  const pages = await pagesOf(bigOne, foreign);
  console.log(`${label}: ${JSON.stringify({ pages })}`);
  return pages;
}

async function measure(label: string, foreign: string) {
  await waitFor(`${base}/api/health`);
  await (async () => {
    for (;;) {
      const { data } = await json<{ data: { state: string } }>('/api/index/status?account=other');
      if (data.state === 'ready') return;
      await sleep(250);
    }
  })();
  const pages = await pagesOf(small, foreign);
  const fresh: number[] = [];
  for (let i = 0; i < FRESH_ROUNDS; i++) {
    const added = (await (
      await fetch(`${upstream}/__sandbox/collections`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ account: 'acc_other' }),
      })
    ).json()) as { data: { id: string } };
    const t = performance.now();
    for (;;) {
      const found = await json<{ data: { id: string }[] }>(`/api/search?q=${added.data.id}&account=other`);
      if (found.data?.some((r) => r.id === added.data.id)) break;
      await sleep(100);
    }
    fresh.push(performance.now() - t);
  }
  // The big accounts' index states (none in the one-account phase: those ids answer 400 there).
  const states = await Promise.all(
    big.map(async (_, i) => {
      const answer = await json<{ data?: { state: string; indexed: number } }>(
        `/api/index/status?account=bench-${i + 1}`,
      );
      return answer.data ?? { state: 'absent', indexed: 0 };
    }),
  );
  console.log(`${label}: ${JSON.stringify({ pages, freshnessMs: median(fresh) })}`);
  return { pages, freshnessMs: median(fresh), bigStates: states.filter((s) => s.state !== 'absent') };
}

ensureSandbox();
mkdirSync('.data', { recursive: true });
children.push(
  runBin('tsx', ['sandbox/main.ts'], {
    env: {
      ...env,
      SANDBOX_DB: sandboxFile,
      SANDBOX_FAULTS: '1',
      SANDBOX_ACTIVITY: '1',
      SANDBOX_ACTIVITY_MS: '3600000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  }),
);
await waitFor(`${upstream}/__sandbox/health`, 300_000);
const foreign = (await ids(big[BIG - 1]!.key))[0]!.id;
const smallRecord = (await ids(small.key))[0]!.id;

// The slowest of the upstream answers the hint waits for: each big account's read of the record, directly.
const upstreamMs: number[] = [];
for (let round = 0; round < 5; round++)
  for (const account of big) {
    upstreamMs.push(
      await timed(() =>
        fetch(`${upstream}/public/collections/${foreign}`, {
          headers: { Authorization: `Bearer ${account.key}` },
        }).then((r) => r.text()),
      ),
    );
  }

const alone = dashboard([small], resolve('.data/bench-accounts-alone.sqlite'));
const one = await measure('one account', foreign);
alone.kill('SIGTERM');
await exited(alone);

// One big account alone in its first sync: the same sync budget as ten, on one account.
const bigAlone = dashboard([bigOne], resolve('.data/bench-accounts-big-alone.sqlite'));
const bigOneAlone = await measureBig('one big account, first sync', smallRecord);
bigAlone.kill('SIGTERM');
await exited(bigAlone);

const accounts = [small, ...big.map((b, i) => ({ id: `bench-${i + 1}`, name: b.name, key: b.key, mode: 'live' }))];
const ten = dashboard(accounts, resolve('.data/bench-accounts-ten.sqlite'));
const several = await measure(`${accounts.length} accounts`, foreign);
const bigOneOfTen = await measureBig(`${accounts.length} accounts, a big one`, smallRecord);
ten.kill('SIGTERM');
await exited(ten);

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
const slowestUpstream = Math.round(Math.max(...upstreamMs) * 10) / 10;
const result = {
  at: new Date().toISOString(),
  cores: cpus().length,
  node: process.version,
  accounts: accounts.length,
  rowsPerBigAccount: ROWS,
  rounds: ROUNDS,
  syncingDuringTen: several.bigStates.filter((s) => s.state !== 'ready').length,
  rows: [
    {
      what: 'small account: added upstream until search finds it',
      oneMs: one.freshnessMs,
      tenMs: several.freshnessMs,
      ratio: ratio(several.freshnessMs, one.freshnessMs),
      goal: '≤ 2×',
    },
    ...(['list', 'search', 'record'] as const).map((name) => ({
      what: `small account: ${name} page, median`,
      oneMs: one.pages[name]!,
      tenMs: several.pages[name]!,
      ratio: ratio(several.pages[name]!, one.pages[name]!),
      goal: '≤ 1.1×',
    })),
    ...(['list', 'search', 'record'] as const).map((name) => ({
      what: `a big account in its first sync: ${name} page, median`,
      oneMs: bigOneAlone[name]!,
      tenMs: bigOneOfTen[name]!,
      ratio: ratio(bigOneOfTen[name]!, bigOneAlone[name]!),
      goal: '≤ 1.1×',
    })),
    {
      what: 'another account’s record: the owner hint vs a plain 403',
      oneMs: one.pages['another account’s record']!,
      tenMs: several.pages['another account’s record']!,
      ratio: ratio(several.pages['another account’s record']!, one.pages['another account’s record']!),
      goal: `≤ 1.5×, extra ≤ slowest upstream answer (${slowestUpstream} ms) + 50 ms`,
      extraMs:
        Math.round((several.pages['another account’s record']! - one.pages['another account’s record']!) * 10) / 10,
      slowestUpstreamMs: slowestUpstream,
    },
  ],
};
writeFileSync('bench/results-accounts.json', `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(
  'bench/results-accounts.md',
  [
    `# Several accounts, ${result.at} (${result.cores} cores, ${result.node})`,
    '',
    `${result.accounts} accounts: the small one (24 collections) beside ${BIG} of ${ROWS.toLocaleString('en')}, ${result.syncingDuringTen} of them still in their first sync when measured; against the small one alone; and one big account in its first sync alone, against the same among the ten.`,
    '',
    '| measure | one account | ten accounts | ratio | goal |',
    '|---|---|---|---|---|',
    ...result.rows.map((r) => `| ${r.what} | ${r.oneMs} ms | ${r.tenMs} ms | ${r.ratio}× | ${r.goal} |`),
    '',
  ].join('\n'),
);
console.log(JSON.stringify(result, null, 2));
process.exit(0);
