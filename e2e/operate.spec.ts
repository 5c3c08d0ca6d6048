import type { APIRequestContext } from '@playwright/test';
import { E2E, SANDBOX_KEYS } from './env';
import { askedAgainAfterIdle } from './keep-alive';
import { spawnProcess } from './processes';
import { expect, test } from './fixtures';

/**
 * What a load balancer, Prometheus and the engineer on call get (issue 17,
 * contract section 11). The gated dashboard has METRICS_TOKEN set; the open one not.
 */
const basic = `Basic ${Buffer.from(`${E2E.gatedUser.username}:${E2E.gatedUser.password}`).toString('base64')}`;
const bearer = { Authorization: `Bearer ${E2E.metricsToken}` };

test('health answers without credentials, with ok and the version only', async ({ request }) => {
  for (const base of [E2E.baseURL, E2E.gatedURL]) {
    const res = await request.get(`${base}/api/health`);
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({
      status: 'success',
      message: 'ok',
      data: { version: expect.stringMatching(/^\d+\.\d+\.\d+/) },
    });
  }
});

test('readiness answers without credentials: which checks passed, nothing more', async ({ request }) => {
  for (const base of [E2E.baseURL, E2E.gatedURL]) {
    const res = await request.get(`${base}/api/ready`);
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({
      status: 'success',
      message: 'ready',
      data: {
        checks: [
          { name: 'upstream', ok: true },
          { name: 'index', ok: true },
        ],
      },
    });
  }
});

async function scrape(request: APIRequestContext) {
  const res = await request.get(`${E2E.gatedURL}/api/metrics`, { headers: bearer });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('text/plain');
  return res.text();
}

/** Series of the record route and the upstream's record reads that unknown ids touch, without their values. */
const touched = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.includes('route="/api/collections/[id]"') || line.includes('operation="collection"'))
    // Counters of other outcomes are other specs' (they read records too, at the same time); the histograms'
    // series are fixed by route and bucket, and what an id could add would show in either.
    .filter((line) => line.includes('le="') || line.includes('status="404"') || line.includes('outcome="not_found"'))
    .map((line) => line.replace(/ \S+$/, ''))
    .sort();

test('metrics: 404 without METRICS_TOKEN, 401 with a wrong token, Prometheus text with it', async ({ request }) => {
  expect((await request.get(`${E2E.baseURL}/api/metrics`, { headers: bearer })).status()).toBe(404);
  const wrong: Record<string, string>[] = [
    {},
    { Authorization: 'Bearer wrong-token-of-some-length' },
    { Authorization: basic },
  ];
  for (const headers of wrong)
    expect((await request.get(`${E2E.gatedURL}/api/metrics`, { headers })).status()).toBe(401);

  await request.get(`${E2E.gatedURL}/api/collections?limit=2`, { headers: { Authorization: basic } });
  const text = await scrape(request);
  for (const name of [
    'dashboard_http_requests_total',
    'dashboard_http_request_duration_seconds_bucket',
    'dashboard_upstream_requests_total',
    'dashboard_upstream_request_duration_seconds_bucket',
    'dashboard_index_rows',
    'dashboard_index_state',
    'dashboard_audit_entries',
    'process_cpu_seconds_total',
    'nodejs_eventloop_lag_seconds',
  ])
    expect(text, name).toContain(name);
  expect(text).toMatch(/dashboard_http_requests_total\{route="\/api\/collections",method="GET",status="200"\} \d+/);
  expect(text).toMatch(/dashboard_upstream_requests_total\{operation="list",outcome="ok"\} \d+/);
  // The built server's WAL checkpoints run on their bundled thread, not on the request thread.
  expect(text).toMatch(/^dashboard_sqlite_checkpoint_thread 1$/m);
  // The index's reads on their thread: how many it started, what waits now, how long they waited in all.
  expect(Number(/^dashboard_sqlite_reads (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
  expect(text).toMatch(/^dashboard_sqlite_read_queue \d+$/m);
  expect(text).toMatch(/^dashboard_sqlite_read_wait_seconds [\d.e+-]+$/m);
  // Pages, as the gate decided them: one passed with credentials, one refused without.
  await request.get(`${E2E.gatedURL}/overview`, { headers: { Authorization: basic } });
  await request.get(`${E2E.gatedURL}/overview`);
  const pages = await scrape(request);
  expect(pages).toMatch(/dashboard_page_requests_total\{route="\/overview",outcome="passed"\} \d+/);
  expect(pages).toMatch(/dashboard_page_requests_total\{route="\/overview",outcome="refused"\} \d+/);
});

test('metrics labels never carry ids: 1,000 distinct ids add no series', async ({ request }) => {
  test.slow(); // a thousand requests
  const headers = { Authorization: basic };
  const hit = (n: number) => request.get(`${E2E.gatedURL}/api/collections/pay_cardinality${n}x`, { headers });
  // Once first, so every series these requests touch exists before counting.
  expect((await hit(0)).status()).toBe(404);
  const before = await scrape(request);
  for (let n = 1; n <= 1000; n += 50)
    await Promise.all(Array.from({ length: 50 }, (_, i) => hit(n + i).then((r) => expect(r.status()).toBe(404))));
  const after = await scrape(request);
  // The series these requests touch, names and labels (other specs use this server at the same time).
  expect(touched(after)).toEqual(touched(before));
  expect(touched(after).length).toBeGreaterThan(3);
  expect(after).not.toContain('pay_cardinality');
  expect(after).toMatch(
    /dashboard_http_requests_total\{route="\/api\/collections\/\[id\]",method="GET",status="404"\} (\d+)/,
  );
});

test('the drift report names what the upstream sent that the seed does not describe, with an example', async ({
  request,
}) => {
  expect((await request.get('/api/collections/pay_fault_unknown')).status()).toBe(200);
  const res = await request.get('/api/drift');
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as {
    data: {
      kind: string;
      path: string;
      value?: string;
      count: number;
      firstSeen: string;
      lastSeen: string;
      exampleId: string;
    }[];
  };
  expect(data).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ kind: 'field', path: 'collection.riskScore', exampleId: 'pay_fault_unknown' }),
      expect.objectContaining({ kind: 'value', path: 'collection.status', value: 'partially_paid' }),
      expect.objectContaining({ kind: 'value', path: 'collection.payable.methods', value: 'crypto_wallet' }),
    ]),
  );
  for (const d of data) {
    expect(d.count).toBeGreaterThan(0);
    expect(Date.parse(d.lastSeen)).toBeGreaterThanOrEqual(Date.parse(d.firstSeen));
  }
  // Gated like every data route.
  expect((await request.get(`${E2E.gatedURL}/api/drift`)).status()).toBe(401);
});

test('/status shows the upstream, the index, the drift report and the build', async ({ page }) => {
  await page.goto('/collections/pay_fault_unknown');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Status' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Status' })).toBeVisible();
  const upstream = page.getByRole('region', { name: 'Upstream' });
  await expect(upstream.getByRole('definition').first()).toHaveText('Yes');
  await expect(upstream).toContainText(/Latency p50 \/ p95\s*\d+ \/ \d+ ms/);
  const index = page.getByRole('region', { name: 'Search index' });
  await expect(index).toContainText('ready');
  // One instance: its own SQLite file, and it runs the sync itself.
  await expect(index).toContainText(/Stored in\s*SQLite file \S+e2e-index-\d+\.sqlite/);
  await expect(index).toContainText('Run by this dashboard');
  await expect(page.getByRole('region', { name: 'This dashboard' })).toContainText(/Version\s*\d+\.\d+\.\d+/);
  // New since the first whole sync, or in the folded baseline when another test opened it before that ended.
  const drift = page.getByRole('region', { name: 'Schema drift', exact: true });
  await expect(drift.getByRole('row', { includeHidden: true }).filter({ hasText: 'collection.riskScore' })).toHaveCount(
    1,
  );

  // What it runs with, no secret shown: the key by its header and last four characters only.
  const config = page.getByRole('region', { name: 'Effective configuration' });
  await expect(config).toContainText(/Upstream\s*http:\/\/127\.0\.0\.1:\d+\/public \(the embedded sandbox\)/);
  await expect(config).toContainText('sent in Authorization, ending …demo');
  await expect(config).toContainText(/Access\s*Open: no access gate/);
  await expect(config).toContainText(/audit log 365 days, history 365 days/);
  expect(await config.textContent()).not.toContain('sk_sandbox_demo');
  // A user's lookup of an unknown id is not an upstream error.
  await page.request.get('/api/collections/pay_doesnotexist000');
  await page.reload();
  await expect(upstream).toContainText(/Lookups of unknown ids.*not found \d+/); // beside "another account's", either first
  await expect(upstream).not.toContainText(/not_found/);
});

test('the OpenAPI description is served, gated, and lists the routes', async ({ request }) => {
  const res = await request.get('/api/openapi.json');
  expect(res.status()).toBe(200);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(doc.openapi).toBe('3.1.0');
  expect(Object.keys(doc.paths)).toEqual(
    expect.arrayContaining(['/api/collections', '/api/collections/{id}', '/api/audit']),
  );
  expect((await request.get(`${E2E.gatedURL}/api/openapi.json`)).status()).toBe(401);
});

test.describe('npm start behind a load balancer', () => {
  // Two dashboards started as `npm start` starts one, against the shared sandbox; each waits out an idle connection.
  test.describe.configure({ timeout: 90_000 });

  /** `npm start` (scripts/start.mjs) on `port` against the e2e sandbox, until it answers /api/health. */
  async function npmStart(port: number, env: Record<string, string> = {}) {
    const server = spawnProcess('scripts/start.mjs', [], {
      API_BASE_URL: E2E.sandboxURL,
      API_KEY: SANDBOX_KEYS[0],
      DASHBOARD_OPEN: 'true',
      INDEX: 'off',
      PORT: String(port),
      ...env,
    });
    await expect
      .poll(
        async () => {
          if (server.child.exitCode !== null) throw new Error(`npm start exited:\n${server.output()}`);
          return fetch(`http://127.0.0.1:${port}/api/health`).then(
            (r) => r.status,
            () => 0,
          );
        },
        { timeout: 45_000 },
      )
      .toBe(200);
    return server;
  }

  test('keeps an idle connection open past Node’s 5 s, for as long as KEEP_ALIVE_TIMEOUT says', async () => {
    const port = E2E.port + 10;
    // By default (65 s) the connection idle 6 s is reused; under an operator's shorter setting the server has
    // closed it, and the client opens another.
    for (const { env, idleMs, reused } of [
      { env: {}, idleMs: 6_000, reused: true },
      { env: { KEEP_ALIVE_TIMEOUT: '1000' }, idleMs: 2_500, reused: false },
    ]) {
      const server = await npmStart(port, env);
      try {
        const { first, second } = await askedAgainAfterIdle(`http://127.0.0.1:${port}/api/health`, idleMs);
        expect([first.status, second.status]).toEqual([200, 200]);
        expect(second.reused, `${JSON.stringify(env)}, idle ${idleMs} ms`).toBe(reused);
      } finally {
        server.child.kill();
        await server.exited;
      }
    }
  });
});
