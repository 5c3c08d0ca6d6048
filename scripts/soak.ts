/**
 * `npm run soak` (minutes, not in CI): the dashboard on the 1,000,000-collection sandbox with its sync
 * running, SOAK_USERS simulated people mixing list pages, record pages, searches (the adversarial ones
 * too), filtered pages, the overview and an export now and then, for SOAK_MINUTES a phase; one phase
 * without faults, then one fault at a time:
 *
 *   none      nothing injected
 *   slow      every upstream answer 2.5 s late (a fault proxy between the dashboard and the sandbox)
 *   5xx       the upstream answers 503 to everything for 10 s of every 30
 *   postgres  the index on PostgreSQL (a replica), the server restarted (fast) a third of the way in
 *
 * Reports p50/p95/p99 per kind, event-loop delay p99 and max (the dashboard's own, from /api/metrics every
 * 10 s), /api/health p99, errors (5xx or no answer; in a fault phase those within the fault's windows are
 * the fault's own and counted apart), RSS at start, peak and end. Writes bench/results-soak.{json,md}.
 *
 *   SOAK_MINUTES=10  SOAK_USERS=8  SOAK_PHASES=none,slow,5xx,postgres  SOAK_WARMUP_S=60  BENCH_SCALE=1000000
 *   SOAK_LOG=file (the measured dashboard's log lines, warn and up; else dropped)
 *   SOAK_CPU_PROF=dir (the measured dashboard's CPU profile, written there when it ends)
 *   SOAK_DASHBOARD_CPU=own (the dashboard in a session, so a CPU group, of its own; else it shares the soak's)
 *
 * Each phase starts with SOAK_WARMUP_S of the same mix, not measured (a fresh server loads its code on its
 * first requests; the figures are the steady state's).
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { existsSync, openSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { resolve } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { createDatabase } from '../sandbox/db';
import { SEED_VERSION } from '../sandbox/seed-data';
import { SIZED_SETTINGS, startPostgres, type PostgresServer } from './postgres-server';
import { binPath, exited, runBin } from './run-bin.mjs';
import { readWhole, rssMb, serverPid, sleep, waitFor } from './server-processes';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const USERS = Number(process.env.SOAK_USERS ?? 8);
const SCALE = Number(process.env.BENCH_SCALE ?? 1_000_000);
const PHASES = (process.env.SOAK_PHASES ?? 'none,slow,5xx,postgres').split(',') as Phase[];
/** The mix runs this long before a phase is measured: a fresh server's first requests load its code. */
const WARMUP_S = Number(process.env.SOAK_WARMUP_S ?? 60);
type Phase = 'none' | 'slow' | '5xx' | 'postgres';
const PORTS = { sandbox: 4711, proxy: 4611, dashboard: 3711, postgres: 5711 };
const METRICS_TOKEN = 'soak-metrics-token-0123456789';
const children: ChildProcess[] = [];
/** The PostgreSQL phase's server while it runs (stopped on Ctrl-C too). */
let postgresUp: PostgresServer | null = null;

/** The fault proxy: what the dashboard calls its upstream. `mode` decides each answer. */
let mode: Phase = 'none';
let faultWindows: [number, number][] = [];
/** 10-second slots: the first of every three is a burst of 503s, the second its aftermath (retries, backoff). */
const slot = (at: number) => Math.floor(at / 10_000) % 3;
const burstOn = () => mode === '5xx' && slot(Date.now()) === 0;
function proxy() {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const forward = () => {
      const upstream = httpRequest(
        { host: '127.0.0.1', port: PORTS.sandbox, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (burstOn()) {
      res.writeHead(503, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ status: 'error', message: 'Service unavailable (soak burst)' }));
      return;
    }
    if (mode === 'slow') setTimeout(forward, 2_500);
    else forward();
  }).listen(PORTS.proxy, '127.0.0.1');
}

/** SOAK_LOG=file: the dashboard's log (its warnings and errors, JSON lines) appended there; else dropped. */
const dashboardLog = process.env.SOAK_LOG ? openSync(process.env.SOAK_LOG, 'a') : 'ignore';

function start(
  bin: string,
  args: string[],
  env: Record<string, string>,
  { stdout = 'ignore', node = [] }: { stdout?: number | 'ignore'; node?: string[] } = {},
) {
  const options = {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', stdout, 'inherit'] as ['ignore', number | 'ignore', 'inherit'],
    // SOAK_DASHBOARD_CPU=own: the dashboard in a session of its own. Linux schedules each session as one CPU
    // group (autogroup), as a service manager gives each service a group: the dashboard then no longer shares
    // its turn with the simulated people and the sandbox (bench/README, issue 33, item 6).
    detached: bin === 'next' && process.env.SOAK_DASHBOARD_CPU === 'own',
  };
  // Node's own flags (a CPU profile) go before the bin: NODE_OPTIONS refuses --cpu-prof.
  const child = node.length
    ? spawn(process.execPath, [...node, binPath(bin), ...args], options)
    : runBin(bin, args, options);
  children.push(child);
  return child;
}

/** The seeded sandbox of `npm run bench` (seeded here when missing), behind the proxy's port. */
async function sandbox() {
  const path = resolve(`.data/bench-${SCALE}.sqlite`);
  let ready = false;
  if (existsSync(path)) {
    const db = new Database(path, { readonly: true });
    const meta = (key: string) =>
      (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
    ready = Number(meta('collections')) > SCALE && Number(meta('seed_version')) === Number(SEED_VERSION);
    db.close();
  }
  if (!ready) {
    console.log(`Seeding ${SCALE.toLocaleString('en')} collections into ${path}…`);
    createDatabase(path, { collections: SCALE });
  }
  // Read whole first: on a cold file the sandbox did not answer within `waitFor`'s 2 minutes (the soak failed).
  console.log(`  the sandbox's file read into the OS's cache (${await readWhole(path)} s)`);
  start('tsx', ['sandbox/main.ts'], { SANDBOX_PORT: String(PORTS.sandbox), SANDBOX_DB: path, SANDBOX_FAULTS: '1' });
  await waitFor(`http://127.0.0.1:${PORTS.sandbox}/__sandbox/health`);
}

/** A dashboard on the proxy (the sandbox's address as far as it knows); waits until its index is ready. */
async function dashboard(where: Record<string, string>) {
  const base = `http://127.0.0.1:${PORTS.dashboard}`;
  const env = { SANDBOX_PORT: String(PORTS.proxy), METRICS_TOKEN, ...where };
  let child = start('next', ['start', '-p', String(PORTS.dashboard), '-H', '127.0.0.1'], {
    ...env,
    INDEX_SYNC_RPS: '1000',
  });
  await waitFor(`${base}/api/index/status`, 300_000);
  for (let shown = 0; ; await sleep(2_000)) {
    const { state, indexed } = (await (await fetch(`${base}/api/index/status`)).json()).data;
    if (state === 'ready') break;
    if (Date.now() - shown > 30_000) {
      console.log(`  index ${state}: ${indexed.toLocaleString('en')} rows`);
      shown = Date.now();
    }
  }
  // The soak's own pace: the default sync (rescans at the sandbox's 50 requests a second, and polls).
  child.kill('SIGTERM');
  await exited(child);
  // SOAK_CPU_PROF=dir: the measured dashboard's CPU profile, written there when it ends (where a long block went).
  const node = process.env.SOAK_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.SOAK_CPU_PROF)}`] : [];
  child = start('next', ['start', '-p', String(PORTS.dashboard), '-H', '127.0.0.1'], env, {
    stdout: dashboardLog,
    node,
  });
  await waitFor(`${base}/api/index/status`, 120_000);
  return { base, child };
}

/** One request: when it started and ended (epoch ms), its status (0: no answer) and, when it failed, why. */
type Sample = { kind: string; ms: number; status: number; at: number; end: number; why?: string };
const percentile = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]! : NaN;
const round = (x: number) => Math.round(x * 10) / 10;

/**
 * A request and its answer read to the end, given up after `timeoutMs` (an error). An export is the
 * dashboard's background work (its threads yield to the pages people wait on): on a saturated machine a
 * whole-account file takes past a minute, as a browser's download may; 3 minutes is its limit here.
 */
async function timedGet(base: string, kind: string, path: string, samples: Sample[], timeoutMs = 60_000) {
  const at = Date.now();
  const t = performance.now();
  let status = 0;
  let why: string | undefined;
  try {
    const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
    status = res.status;
    const body = Buffer.from(await res.arrayBuffer());
    // A failure's reason for the report: the API's error code, else the status (a page's error state is HTML).
    if (status >= 500)
      why = /"code":"([\w-]{1,40})"/.exec(body.subarray(0, 4096).toString('utf8'))?.[1] ?? `HTTP ${status}`;
  } catch (error) {
    status = 0;
    why =
      (error as Error)?.name === 'TimeoutError'
        ? `no answer in ${timeoutMs / 1000} s`
        : `no answer (${(error as Error)?.message})`;
  }
  samples.push({ kind, ms: performance.now() - t, status, at, end: Date.now(), ...(why ? { why } : {}) });
}

/**
 * `/api/health` once a second until `until`, from a thread of its own: the people's requests and the export
 * read on this thread (a 124 MB file whole, pages of HTML), and a probe queued behind them would time this
 * process, not the dashboard. A monitor is a process of its own.
 */
function healthProbe(base: string, until: number): Promise<Sample[]> {
  const code = `
    const { parentPort, workerData: { url, until } } = require('node:worker_threads');
    (async () => {
      const samples = [];
      // Not measured: a thread's first fetch loads its HTTP client (~150 ms here).
      await fetch(url).then((res) => res.arrayBuffer()).catch(() => {});
      while (Date.now() < until) {
        const at = Date.now();
        const t = performance.now();
        let status = 0;
        try {
          const res = await fetch(url, { signal: AbortSignal.timeout(60000) });
          status = res.status;
          await res.arrayBuffer();
        } catch {}
        samples.push({ kind: '/api/health', ms: performance.now() - t, status, at, end: Date.now(), ...(status === 200 ? {} : { why: 'HTTP ' + status }) });
        await new Promise((r) => setTimeout(r, 1000));
      }
      parentPort.postMessage(samples);
    })();`;
  const thread = new Worker(code, { eval: true, workerData: { url: `${base}/api/health`, until } });
  return new Promise((done, fail) => {
    thread.once('message', (samples: Sample[]) => done(samples));
    thread.once('error', fail);
  });
}

/** One phase: USERS people for MINUTES, the health probe, the metrics scraper, and the phase's fault. */
async function phase(name: Phase, base: string, pid: number, pgServer: PostgresServer | null) {
  mode = name === 'postgres' ? 'none' : name;
  faultWindows = [];
  const samples: Sample[] = [];
  const lag = { p99: 0, max: 0 };
  /** Each 10-second scrape whose event-loop max passed 100 ms: when (epoch ms, the scrape's end) and how long. */
  const longBlocks: { at: number; maxMs: number }[] = [];
  let restartMs: number | null = null;
  /** The SQLite reads thread's figures (absent on PostgreSQL): reads started and seconds waited, at the phase's start and last scrape; the longest queue seen. */
  const queue = { reads: [NaN, NaN], waited: [NaN, NaN], longest: 0 };
  const rss = { start: 0, peak: 0, end: 0 };
  let until = 0;
  const api = async <T>(path: string) => {
    const res = await fetch(`${base}${path}`);
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const fixtures = (await (await fetch(`http://127.0.0.1:${PORTS.sandbox}/__sandbox/fixtures`)).json()) as {
    accounts: {
      id: string;
      contacts: Record<
        string,
        { email: string; phone: string; firstName: string; lastName: string; reference: string }
      >;
    }[];
  };
  const contacts = Object.values(fixtures.accounts.find((a) => a.id === 'acc_demo')!.contacts);
  // Warm-up, reported: the first filtered read after a start may find the index's pages cold.
  let ids: string[] = [];
  for (let attempt = 1; !ids.length; attempt++) {
    const t = performance.now();
    try {
      ids = (await api<{ data: { id: string }[] }>('/api/collections?limit=100&status=pending')).data.map((c) => c.id);
    } catch (error) {
      if (attempt >= 5) throw error;
      console.log(
        `  warm-up read ${attempt} failed after ${Math.round(performance.now() - t)} ms: ${String(error).slice(0, 120)}`,
      );
      await sleep(2_000);
    }
  }
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const kinds: [string, number, () => string][] = [
    ['list page', 20, () => `/collections?page=${1 + Math.floor(Math.random() * 2_000)}&limit=25`],
    ['record page', 20, () => `/collections/${pick(ids)}`],
    [
      'search',
      20,
      () => {
        const c = pick(contacts);
        return `/api/search?${new URLSearchParams({ q: pick([c.email, c.phone, `${c.firstName} ${c.lastName}`, c.reference]) })}`;
      },
    ],
    [
      'adversarial search',
      8,
      () =>
        `/api/search?${new URLSearchParams(pick<Record<string, string>>([{ q: pick(contacts).firstName }, { q: pick(contacts).firstName, page: '50' }, { q: '202' }, { q: 'INV-2026-1' }]))}`,
    ],
    [
      'filtered page',
      20,
      () => `/collections?status=pending&currency=NGN&sort=-amount&page=${1 + Math.floor(Math.random() * 50)}`,
    ],
    ['overview', 6, () => `/overview?range=${pick(['30d', 'all'])}`],
  ];
  const weight = kinds.reduce((sum, k) => sum + k[1], 0);
  const chooseKind = () => {
    let r = Math.random() * weight;
    for (const k of kinds) if ((r -= k[1]) < 0) return k;
    return kinds[0]!;
  };

  const mix = (end: number, into: Sample[]) =>
    Array.from({ length: USERS }, async (_, n) => {
      await sleep(n * 150);
      while (Date.now() < end) {
        const [kind, , path] = chooseKind();
        await timedGet(base, kind, path(), into);
        await sleep(100 + Math.random() * 400); // a person reads what they asked for
      }
    });
  // Warm-up: the same mix, not measured; then the event-loop histogram is read once (prom-client resets it).
  await Promise.all(mix(Date.now() + WARMUP_S * 1000, []));
  const first = await fetch(`${base}/api/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } }).then(
    (r) => r.text(),
  );
  const metric = (text: string, name: string) =>
    Number(new RegExp(`^${name} ([\\d.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN);
  queue.reads[0] = metric(first, 'dashboard_sqlite_reads');
  queue.waited[0] = metric(first, 'dashboard_sqlite_read_wait_seconds');
  rss.start = rss.peak = rssMb(pid);
  until = Date.now() + MINUTES * 60_000;
  const people = mix(until, samples);
  // One export a minute, read to its end.
  const exporter = (async () => {
    while (Date.now() < until - 60_000) {
      await timedGet(
        base,
        'export (pending, whole file)',
        '/api/export/collections.csv?status=pending',
        samples,
        180_000,
      );
      await sleep(60_000);
    }
  })();
  const probe = healthProbe(base, until).then((probes) => samples.push(...probes));
  // The same probe on the people's thread, as earlier soaks measured it: the difference is this process's own wait.
  const sharedProbe = (async () => {
    while (Date.now() < until) {
      await timedGet(base, '/api/health, on the people’s thread', '/api/health', samples);
      await sleep(1_000);
    }
  })();
  const scraper = (async () => {
    while (Date.now() < until) {
      await sleep(10_000);
      rss.peak = Math.max(rss.peak, rssMb(pid));
      const text = await (
        await fetch(`${base}/api/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
      ).text();
      const value = (name: string) => Number(new RegExp(`^${name} ([\\d.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
      lag.p99 = Math.max(lag.p99, value('nodejs_eventloop_lag_p99_seconds'));
      const max = value('nodejs_eventloop_lag_max_seconds');
      lag.max = Math.max(lag.max, max);
      // Where a long block fell, against the fault's time: the report's `longBlocks`.
      if (max > 100) longBlocks.push({ at: Date.now(), maxMs: round(max) });
      queue.reads[1] = metric(text, 'dashboard_sqlite_reads');
      queue.waited[1] = metric(text, 'dashboard_sqlite_read_wait_seconds');
      queue.longest = Math.max(queue.longest, metric(text, 'dashboard_sqlite_read_queue') || 0);
    }
  })();
  const fault = (async () => {
    if (name === 'postgres' && pgServer) {
      await sleep((MINUTES * 60_000) / 3);
      const from = Date.now();
      console.log('  restarting PostgreSQL (fast)…');
      await pgServer.restart();
      restartMs = Date.now() - from;
      faultWindows.push([from, Date.now() + 15_000]);
    }
  })();
  await Promise.all([...people, exporter, probe, sharedProbe, scraper, fault]);
  rss.end = rssMb(pid);

  // A slow upstream is no excuse for an error; a burst of 503s is, for the requests in it or just after it.
  // A request in flight at any moment of a fault window is the fault's (an export started before a restart
  // and cut by it), not only one started inside it.
  const inFault = (s: Sample) =>
    (name === '5xx' && (slot(s.at) !== 2 || slot(s.end) !== 2)) ||
    faultWindows.some(([from, to]) => s.at <= to && s.end >= from);
  const failed = (s: Sample) => s.status === 0 || s.status >= 500;
  const byKind = [...new Set(samples.map((s) => s.kind))].map((kind) => {
    const of = samples.filter((s) => s.kind === kind);
    const ms = of.map((s) => s.ms);
    return {
      kind,
      n: of.length,
      p50: round(percentile(ms, 50)),
      p95: round(percentile(ms, 95)),
      p99: round(percentile(ms, 99)),
      errors: of.filter((s) => failed(s) && !inFault(s)).length,
      faultErrors: of.filter((s) => failed(s) && inFault(s)).length,
      statuses: Object.fromEntries(
        [...new Set(of.map((s) => s.status))].map((code) => [code, of.filter((s) => s.status === code).length]),
      ),
    };
  });
  // Seconds from the phase's start (and from the fault's, when one was injected at a moment).
  const start = until - MINUTES * 60_000;
  const when = (t: number) =>
    `${round((t - start) / 1000)} s${faultWindows[0] ? ` (fault ${round((t - faultWindows[0][0]) / 1000)} s)` : ''}`;
  const unexpected = samples
    .filter((s) => failed(s) && !inFault(s))
    .map((s) => ({ kind: s.kind, status: s.status, why: s.why, from: when(s.at), to: when(s.end) }));
  return {
    phase: name,
    minutes: MINUTES,
    users: USERS,
    eventLoopDelayMs: { p99: round(lag.p99), max: round(lag.max) },
    // The mean time an index read waited for the SQLite reads thread in the phase (null on PostgreSQL).
    readWaitMs: Number.isFinite(queue.reads[1]! - queue.reads[0]!)
      ? round((1000 * (queue.waited[1]! - queue.waited[0]!)) / Math.max(1, queue.reads[1]! - queue.reads[0]!))
      : null,
    readQueueLongest: queue.longest,
    healthP99Ms: byKind.find((k) => k.kind === '/api/health')?.p99 ?? NaN,
    errors: byKind.reduce((sum, k) => sum + k.errors, 0),
    faultErrors: byKind.reduce((sum, k) => sum + k.faultErrors, 0),
    rssMb: { start: Math.round(rss.start), peak: Math.round(rss.peak), end: Math.round(rss.end) },
    byKind,
    /** The errors not the fault's own, each with its reason and when it ran. */
    unexpected,
    /** The 10-second scrapes whose event-loop max passed 100 ms, and when they ended. */
    longBlocks: longBlocks.map((b) => ({ maxMs: b.maxMs, until: when(b.at) })),
    /** The health probe's three slowest answers, and when. */
    slowestHealth: samples
      .filter((s) => s.kind === '/api/health')
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((s) => ({ ms: round(s.ms), at: when(s.at) })),
    /** When the last of the fault's own errors ended: how soon after the fault everything answered again. */
    lastFaultError: (() => {
      const ends = samples.filter((s) => failed(s) && inFault(s)).map((s) => s.end);
      return ends.length ? when(Math.max(...ends)) : null;
    })(),
    /** How long the injected restart itself took (PostgreSQL down to up again), in seconds. */
    restartS: restartMs === null ? null : round(restartMs / 1000),
    /** The fault windows, from the phase's start. */
    faultWindows: faultWindows.map(([from, to]) => `${round((from - start) / 1000)}-${round((to - start) / 1000)} s`),
  };
}

async function main() {
  if (!existsSync('.next/BUILD_ID')) {
    console.log('Building…');
    if ((await exited(runBin('next', ['build'], { env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } }))) !== 0)
      throw new Error('build failed');
  }
  await sandbox();
  const server = proxy();
  const results = [];
  for (const name of PHASES) {
    console.log(`\nPhase ${name}: ${USERS} people for ${MINUTES} min`);
    // The index is brought up with the upstream whole: the last phase's fault would fail its sync's pages.
    mode = 'none';
    // Sized as npm run bench sizes it (a server of its own, checkpoints spread out): with the defaults a
    // 1,000,000-collection sync ran at 200-500 rows/s here and the phase never started.
    const pgServer = (postgresUp =
      name === 'postgres' ? await startPostgres({ port: PORTS.postgres, settings: SIZED_SETTINGS }) : null);
    // SQLite: the index the bench synced (.data/bench-index.sqlite), else one synced here first.
    const { base, child } = await dashboard(
      pgServer
        ? { DATABASE_URL: pgServer.url, INDEX_PATH: resolve('.data/soak-pg/index') }
        : { INDEX_PATH: resolve('.data/bench-index.sqlite') },
    );
    const result = await phase(name, base, serverPid(child.pid!), pgServer);
    console.log(JSON.stringify(result, null, 1));
    results.push(result);
    child.kill('SIGTERM');
    await exited(child);
    await pgServer?.stop();
    postgresUp = null;
  }
  server.close();
  writeFileSync('bench/results-soak.json', JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
  const lines = [
    '# Soak results',
    '',
    `${new Date().toISOString()}, ${USERS} people, ${MINUTES} min a phase, ${SCALE.toLocaleString('en')} collections`,
    '',
    '| phase | event-loop delay p99 / max | /api/health p99 | an index read’s mean wait for the reads thread (longest queue seen) | errors (the fault’s own) | RSS start / peak / end |',
    '|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.phase} | ${r.eventLoopDelayMs.p99} / ${r.eventLoopDelayMs.max} ms | ${r.healthP99Ms} ms | ${r.readWaitMs === null ? '(PostgreSQL)' : `${r.readWaitMs} ms (${r.readQueueLongest})`} | ${r.errors} (${r.faultErrors}) | ${r.rssMb.start} / ${r.rssMb.peak} / ${r.rssMb.end} MB |`,
    ),
    '',
    '| phase | kind | requests | p50 | p95 | p99 | errors (the fault’s own) |',
    '|---|---|---|---|---|---|---|',
    ...results.flatMap((r) =>
      r.byKind.map(
        (k) =>
          `| ${r.phase} | ${k.kind} | ${k.n} | ${k.p50} | ${k.p95} | ${k.p99} ms | ${k.errors} (${k.faultErrors}) |`,
      ),
    ),
  ];
  for (const r of results) {
    lines.push('', `Phase ${r.phase}${r.faultWindows.length ? ` (fault windows ${r.faultWindows.join(', ')})` : ''}:`);
    for (const e of r.unexpected)
      lines.push(`- ${e.kind}: ${e.status || 'no answer'} ${e.why ?? ''}, ${e.from} to ${e.to}`);
    for (const b of r.longBlocks) lines.push(`- event loop blocked ${b.maxMs} ms in the 10 s up to ${b.until}`);
    if (r.restartS !== null) lines.push(`- PostgreSQL's restart took ${r.restartS} s`);
    if (r.lastFaultError) lines.push(`- the fault's last error ended at ${r.lastFaultError}`);
    lines.push(`- the health probe's slowest: ${r.slowestHealth.map((h) => `${h.ms} ms at ${h.at}`).join(', ')}`);
  }
  writeFileSync('bench/results-soak.md', `${lines.join('\n')}\n`);
  console.log(`\n${lines.join('\n')}`);
}

// A session of its own (above) does not get the terminal's Ctrl-C, nor does PostgreSQL: the soak stops them.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    for (const child of children) child.kill('SIGTERM');
    void Promise.resolve(postgresUp?.stop()).finally(() => process.exit(130));
  });

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill('SIGTERM');
    // The fault proxy and the probes' timers would keep the process alive after a failure.
    setTimeout(() => process.exit(), 2_000).unref();
  });
