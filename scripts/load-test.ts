/**
 * `npm run test:load`: a bounded load test on loopback only. Starts the sandbox
 * and the production build, sends 10,000 requests at 50 connections to the
 * list (limit=100) and to a detail route, then the same shape against a slow
 * sandbox. Exits non-zero when any rule breaks:
 *   - normal upstream: zero errors; a second identical round does not grow memory further;
 *   - slow upstream: every request ends in 200 or 504, none past the deadline.
 * LOAD_TEST_OUT=<file> also writes the figures as JSON (`npm run bench` reports them).
 */
import autocannon from 'autocannon';
import { existsSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { exited, runBin } from './run-bin.mjs';
import { rssMb, serverPid, sleep, waitFor } from './server-processes';

const PORT = 3510;
const SANDBOX_PORT = 4510;
const TIMEOUT_MS = 1000;
const results: Record<string, unknown> = {};
const failures: string[] = [];
const children: ChildProcess[] = [];

function start(name: string, args: [string, string[]], env: Record<string, string>) {
  const child = runBin(args[0], args[1], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  child.on('exit', (code) => code && console.error(`${name} exited with ${code}`));
  return child;
}

async function blast(label: string, path: string, amount: number, pid: number) {
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  const result = await autocannon({ url: `http://127.0.0.1:${PORT}${path}`, connections: 50, amount, timeout: 10 });
  clearInterval(sampler);
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count]),
  );
  const summary = {
    requests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statuses,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    peakRssMb: Math.round(peak),
  };
  results[label] = summary;
  console.log(label.padEnd(28), JSON.stringify(summary));
  return summary;
}

async function main() {
  if (!existsSync('.next/BUILD_ID')) {
    console.log('Building…');
    if ((await exited(runBin('next', ['build'], { env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } }))) !== 0)
      throw new Error('build failed');
  }
  const common = { SANDBOX_PORT: String(SANDBOX_PORT), SANDBOX_DB: '.data/load-sandbox.sqlite' };
  let sandbox = start('sandbox', ['tsx', ['sandbox/main.ts']], common);
  const dashboard = start('dashboard', ['next', ['start', '-p', String(PORT), '-H', '127.0.0.1']], {
    ...common,
    API_TIMEOUT_MS: String(TIMEOUT_MS),
    API_BASE_URL: '',
    PORT: String(PORT),
  });
  await waitFor(`http://127.0.0.1:${SANDBOX_PORT}/__sandbox/health`);
  await waitFor(`http://127.0.0.1:${PORT}/api/collections?limit=1`);
  const pid = serverPid(dashboard.pid!);
  const fixtures = (await (await fetch(`http://127.0.0.1:${SANDBOX_PORT}/__sandbox/fixtures`)).json()) as {
    accounts: { collections: { integrated: string[] } }[];
  };
  const id = fixtures.accounts[0]!.collections.integrated[0]!;

  await blast('warm-up', '/api/collections?limit=100', 500, pid);
  await sleep(2000);
  const baseline = rssMb(pid);
  results.baselineRssMb = Math.round(baseline);
  // Two identical rounds: V8 keeps heap it grew into under 50 concurrent requests, so "back
  // to baseline" is judged as "a second round does not grow it further" (a leak would).
  const rounds: number[] = [];
  const peaks: number[] = [];
  for (const round of [1, 2]) {
    let peak = 0;
    for (const [label, path] of [
      ['list limit=100', '/api/collections?limit=100'],
      ['detail', `/api/collections/${id}`],
    ] as const) {
      const r = await blast(`${label} (round ${round})`, path, 10_000, pid);
      peak = Math.max(peak, r.peakRssMb);
      if (r.errors || r.timeouts || r.non2xx)
        failures.push(`${label}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
    }
    peaks.push(peak);
    await sleep(5000);
    rounds.push(rssMb(pid));
    console.log(`RSS after round ${round}: ${rounds.at(-1)!.toFixed(0)} MB (baseline ${baseline.toFixed(0)} MB)`);
  }
  results.afterRoundsRssMb = rounds.map(Math.round);
  results.peakRssMbByRound = peaks;
  if (rounds[1]! > rounds[0]! * 1.15 + 30)
    failures.push(
      `memory kept growing: ${rounds.map((r) => r.toFixed(0)).join(' MB, then ')} MB after two identical rounds`,
    );

  // A slow upstream: each answer waits 0..3 s against a 1 s deadline.
  sandbox.kill('SIGTERM');
  await exited(sandbox);
  sandbox = start('slow sandbox', ['tsx', ['sandbox/main.ts']], { ...common, SANDBOX_DELAY_MS: '3000' });
  await waitFor(`http://127.0.0.1:${SANDBOX_PORT}/__sandbox/health`);
  for (const [label, path] of [
    ['slow list limit=100', '/api/collections?limit=100'],
    ['slow detail', `/api/collections/${id}`],
  ] as const) {
    const r = await blast(label, path, 2_000, pid);
    const other = Object.keys(r.statuses).filter((code) => code !== '200' && code !== '504');
    if (r.errors || r.timeouts || other.length)
      failures.push(`${label}: ${r.errors} errors, ${r.timeouts} hung, statuses ${other.join(',')}`);
    if (r.max > TIMEOUT_MS + 1500)
      failures.push(`${label}: slowest answer ${r.max} ms, past the ${TIMEOUT_MS} ms deadline`);
  }

  console.log(JSON.stringify(results, null, 2));
  if (process.env.LOAD_TEST_OUT) writeFileSync(process.env.LOAD_TEST_OUT, JSON.stringify({ results, failures }));
  if (failures.length) throw new Error(failures.join('\n'));
  console.log('load test: all rules held');
}

main()
  .catch((error: unknown) => {
    console.error(String(error instanceof Error ? error.message : error));
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill('SIGTERM');
  });
