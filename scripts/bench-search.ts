/**
 * `npm run bench:search`: each kind of search on a 1,000,000-collection SQLite index, in process through the
 * index's reads (its reads thread included), and with `BENCH_BEFORE=<ref>` beside that commit's tree on the
 * same index file, interleaved round by round (A B, then B A): a change's figure is the ratio of the two
 * p95s, never a time compared across runs. Faster than `bench:index` (no upstream, no HTTP, no sync): the
 * search's own statements and the waits between them, with the request thread idle and then kept busy 3 ms
 * in every 10 (a round trip to the reads thread then waits for its turn, as beside a sync).
 *
 *   BENCH_SEARCH_RECORDS=1000000   records in the index (built once, kept as .data/bench-search-<n>.sqlite)
 *   BENCH_BEFORE=<ref>             the tree to measure beside (a worktree in .data/bench-before-search)
 *   BENCH_SEARCH_ROUNDS=10         rounds; each asks every kind 20 times of each tree
 *
 * Writes bench/results-search.{json,md}.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { searchQueries, type SearchedContact } from './bench-queries';

const RECORDS = Number(process.env.BENCH_SEARCH_RECORDS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 10);
const EACH = 20;
const BEFORE = process.env.BENCH_BEFORE;
const child = resolve('scripts/bench-search-child.ts');
const tsx = resolve('node_modules/.bin/tsx');
const index = resolve(`.data/bench-search-${RECORDS}.sqlite`);
const fixture = `${index}.contact.json`;

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

function build() {
  if (existsSync(index) && existsSync(fixture)) return;
  for (const suffix of ['', '-wal', '-shm']) rmSync(index + suffix, { force: true });
  const started = performance.now();
  execFileSync(tsx, ['--conditions=react-server', child, 'build', index, String(RECORDS), fixture], {
    stdio: 'inherit',
  });
  console.log(`built ${RECORDS} records in ${round((performance.now() - started) / 1000, 1)} s`);
}

/** The tree of `ref`, checked out beside this one, with this tree's modules. */
function beforeTree(ref: string): string {
  const dir = resolve('.data/bench-before-search');
  if (existsSync(dir)) execFileSync('git', ['worktree', 'remove', '--force', dir]);
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { stdio: 'ignore' });
  symlinkSync(resolve('node_modules'), resolve(dir, 'node_modules'));
  return dir;
}

type Server = { ask(q: string): Promise<{ ms: number; count: number }>; stop(): void };

async function serve(cwd: string, busy: boolean): Promise<Server> {
  const proc = spawn(tsx, ['--conditions=react-server', child, 'serve', index, ...(busy ? ['busy'] : [])], {
    cwd,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string);
  await next();
  return {
    async ask(q) {
      proc.stdin.write(`${JSON.stringify({ q })}\n`);
      return next();
    },
    stop: () => proc.kill('SIGTERM'),
  };
}

build();
const contact = JSON.parse(readFileSync(fixture, 'utf8')) as SearchedContact;
const queries = searchQueries(contact);
const beforeDir = BEFORE ? beforeTree(BEFORE) : null;

type Row = { kind: string; found: number; oursP95: number; beforeP95?: number; ratio?: number };

/** Every kind asked of each tree, interleaved: idle, or with the request thread kept busy. */
async function phase(busy: boolean): Promise<Row[]> {
  const trees: [string, Server][] = [['ours', await serve(process.cwd(), busy)]];
  if (beforeDir) trees.push(['before', await serve(beforeDir, busy)]);
  const times = new Map<string, number[]>();
  const counts = new Map<string, number>();
  // Warm-up: each tree compiles its statements and reads the index's pages once.
  for (const [, server] of trees) for (const [, q] of queries) for (let i = 0; i < 5; i++) await server.ask(q);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [...trees].reverse() : trees;
    for (const [kind, q] of queries)
      for (const [name, server] of order)
        for (let i = 0; i < EACH; i++) {
          const { ms, count } = await server.ask(q);
          const key = `${name}\t${kind}`;
          times.set(key, [...(times.get(key) ?? []), ms]);
          // Both trees must find the same: a faster search that finds less is no figure.
          const known = counts.get(kind);
          if (known !== undefined && known !== count) throw new Error(`${kind}: ${name} found ${count}, not ${known}`);
          counts.set(kind, count);
        }
  }
  for (const [, server] of trees) server.stop();
  return queries.map(([kind]) => {
    const [ours, before] = trees.map(([name]) => percentile(times.get(`${name}\t${kind}`)!, 95));
    return {
      kind: busy ? `${kind}, request thread busy` : kind,
      found: counts.get(kind)!,
      oursP95: round(ours!),
      ...(before === undefined ? {} : { beforeP95: round(before), ratio: round(ours! / before) }),
    };
  });
}

const rows = [...(await phase(false)), ...(await phase(true))];
const at = new Date().toISOString();
writeFileSync(
  resolve('bench/results-search.json'),
  `${JSON.stringify({ at, cores: cpus().length, records: RECORDS, before: BEFORE ?? null, rounds: ROUNDS, each: EACH, rows }, null, 2)}\n`,
);
const md = [
  '# Search, in process, side by side',
  '',
  `${cpus().length} cores, ${RECORDS.toLocaleString('en')} records, ${at}; ${ROUNDS} rounds of ${EACH} a kind and tree, interleaved`,
  '',
  `| kind | found | ours p95 ms | ${BEFORE ? `before (${BEFORE}) p95 ms | ratio |` : ''}`,
  `|---|---|---|${BEFORE ? '---|---|' : ''}`,
  ...rows.map((r) => `| ${r.kind} | ${r.found} | ${r.oursP95} | ${BEFORE ? `${r.beforeP95} | ${r.ratio} |` : ''}`),
  '',
  'Busy: the request thread held 3 ms in every 10, as a sync and other requests hold it.',
  '',
].join('\n');
writeFileSync(resolve('bench/results-search.md'), md);
console.log(md);
