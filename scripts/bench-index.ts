/**
 * The search index at scale, for `npm run bench` (or alone: `npm run bench:index`
 * against a sandbox already serving the large data set). Every figure is a
 * server-side time or a ratio measured side by side in one run:
 *
 * - a full sync of the whole account from the local sandbox, unpaced: time,
 *   dashboard RSS growth while it runs, the index's size on disk;
 * - /api/search p95 at one connection for each kind of query;
 * - filtered /api/collections p95 for the first, a middle and the last page;
 * - the live list page's p50 with a default-paced sync running against none;
 * - freshness: a collection added upstream, until search returns it (defaults).
 */
import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { runBin } from './run-bin.mjs';
import { rssMb, serverPid, sleep, waitFor } from './server-processes';

type Report = {
  fact(name: string, value: number | string, unit?: string): void;
  row(name: string, ours: number, floor: number, unit: string): void;
};

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

async function timed(url: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return performance.now() - t;
}

async function p95(url: string, n = 60): Promise<number> {
  await timed(url);
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(await timed(url));
  return percentile(xs, 95);
}

type Status = { state: string; indexed: number; upstreamCount: number | null };
const status = async (base: string) =>
  ((await (await fetch(`${base}/api/index/status`)).json()) as { data: Status }).data;

export async function benchIndex(options: {
  sandboxPort: number;
  ports: [number, number, number];
  env: NodeJS.ProcessEnv;
  report: Report;
  children: ChildProcess[];
}) {
  const { report, env } = options;
  const sandbox = `http://127.0.0.1:${options.sandboxPort}`;
  const [syncPort, offPort, pacedPort] = options.ports;
  const dashboard = (port: number, extra: Record<string, string>) => {
    const child = runBin('next', ['start', '-p', String(port), '-H', '127.0.0.1'], {
      env: { ...env, SANDBOX_PORT: String(options.sandboxPort), LOG_LEVEL: 'warn', ...extra },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    options.children.push(child);
    return child;
  };
  const fresh = (name: string) => {
    const path = resolve(`.data/${name}`);
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    return path;
  };

  // 1. A full sync, unpaced.
  const indexPath = fresh('bench-index.sqlite');
  const base = `http://127.0.0.1:${syncPort}`;
  const started = performance.now();
  const child = dashboard(syncPort, { INDEX_PATH: indexPath, INDEX_SYNC_RPS: '1000' });
  await waitFor(`${base}/api/index/status`);
  const pid = serverPid(child.pid!);
  const rssStart = rssMb(pid);
  let rssPeak = rssStart;
  let last: Status = await status(base);
  while (last.state !== 'ready') {
    await sleep(1000);
    rssPeak = Math.max(rssPeak, rssMb(pid));
    last = await status(base);
    if (last.state === 'error' || last.state === 'off') throw new Error(`index ${last.state} during the sync`);
  }
  const syncS = (performance.now() - started) / 1000;
  const bytes = ['', '-wal'].reduce(
    (sum, s) => sum + (statSync(indexPath + s, { throwIfNoEntry: false })?.size ?? 0),
    0,
  );
  report.fact(`index: full sync of ${last.indexed.toLocaleString('en')} collections`, round(syncS / 60, 2), 'min');
  report.fact('index: sync rate', Math.round(last.indexed / syncS), 'rows/s');
  report.fact('index: dashboard RSS growth during the sync', Math.round(rssPeak - rssStart), 'MB');
  report.fact('index: size on disk', round(bytes / 2 ** 20, 0), 'MiB');

  // The figures users meet come from a server syncing at its default pace (5 rps), not a bulk load.
  child.kill('SIGTERM');
  await sleep(1000);
  const served = dashboard(syncPort, { INDEX_PATH: indexPath, INDEX_SYNC_RPS: '5' });
  await waitFor(`${base}/api/index/status`);

  // 2. Search, each kind of query, one connection.
  const fixtures = (await (await fetch(`${sandbox}/__sandbox/fixtures`)).json()) as {
    accounts: {
      id: string;
      contacts: Record<
        string,
        { reference: string; email: string; phone: string; firstName: string; lastName: string }
      >;
    }[];
  };
  const c = Object.values(fixtures.accounts.find((a) => a.id === 'acc_demo')!.contacts)[0]!;
  const digits = c.phone.replace(/\D/g, '');
  const queries: [string, string][] = [
    ['e-mail', c.email],
    ['phone', c.phone],
    ['last four', digits.slice(-4)],
    ['reference prefix', c.reference.slice(0, -2)],
    ['name tokens', `${c.lastName} ${c.firstName}`],
    ['no match', 'nobody@nowhere.example'],
  ];
  for (const [kind, q] of queries) {
    report.fact(
      `index: /api/search p95, ${kind}`,
      round(await p95(`${base}/api/search?${new URLSearchParams({ q })}`)),
      'ms',
    );
  }

  // 3. Filtered pages: a status, a currency, a date range, sorted by amount; first, middle, last.
  const filter = new URLSearchParams({
    status: 'pending',
    currency: 'NGN',
    createdFrom: '2000-01-01',
    createdTo: '2026-11-20',
    sort: 'amount',
    limit: '100',
  });
  const count = ((await (await fetch(`${base}/api/collections?${filter}`)).json()) as { meta: { count: number } }).meta
    .count;
  const lastPage = Math.max(1, Math.ceil(count / 100));
  for (const [label, page] of [
    ['first', 1],
    ['middle', Math.ceil(lastPage / 2)],
    ['last', lastPage],
  ] as const) {
    filter.set('page', String(page));
    report.fact(
      `index: filtered /api/collections p95, ${label} page of ${lastPage}`,
      round(await p95(`${base}/api/collections?${filter}`, 30)),
      'ms',
    );
  }

  // 4. Freshness with the defaults (poll every 15 s): added upstream until search returns it.
  const tag = Math.random().toString(36).slice(2, 10);
  const email = `fresh.${tag}@example.com`;
  const res = await fetch(`${sandbox}/__sandbox/collections`, {
    method: 'POST',
    body: JSON.stringify({
      record: {
        contact: { id: `contact_${tag}`, firstName: 'Fresh', lastName: 'Bench', email, phone: '+1 415 555 0100' },
      },
    }),
  });
  if (res.status !== 201) throw new Error(`adding a collection: ${res.status} (the sandbox needs SANDBOX_FAULTS=1)`);
  const addedAt = performance.now();
  for (;;) {
    const found = (await (await fetch(`${base}/api/search?${new URLSearchParams({ q: email })}`)).json()) as {
      data: unknown[];
    };
    if (found.data.length) break;
    if (performance.now() - addedAt > 120_000) throw new Error('the new collection was not found within 120 s');
    await sleep(250);
  }
  report.fact(
    'index: freshness, added upstream to found by search (defaults)',
    round((performance.now() - addedAt) / 1000),
    's',
  );
  served.kill('SIGTERM');

  // 5. The live list while a default-paced sync runs, against a dashboard with the index off.
  const off = `http://127.0.0.1:${offPort}`;
  const paced = `http://127.0.0.1:${pacedPort}`;
  dashboard(offPort, { INDEX: 'off' });
  dashboard(pacedPort, { INDEX_PATH: fresh('bench-index-paced.sqlite'), INDEX_SYNC_RPS: '5' });
  await waitFor(`${off}/api/collections?limit=1`);
  await waitFor(`${paced}/api/collections?limit=1`);
  await sleep(3000); // the paced sync is under way
  const p50 = async (url: string) => (await autocannon({ url, connections: 1, amount: 150 })).latency.p50;
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    a.push(await p50(`${paced}/collections?limit=100`));
    b.push(await p50(`${off}/collections?limit=100`));
  }
  const pacedStatus = await status(paced);
  if (pacedStatus.state !== 'building') console.warn(`the paced sync was ${pacedStatus.state} during the comparison`);
  report.row('index: list page p50, sync running at 5 rps vs index off', percentile(a, 50), percentile(b, 50), 'ms');
}
