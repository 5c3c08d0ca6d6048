import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { binPath } from '../scripts/run-bin.mjs';
import { E2E, SANDBOX_KEYS } from './env';
import { spawnProcess } from './processes';
import { expect, test } from './fixtures';

/** Contract section 3 and issue 5: the gate fails closed, headers hold, nothing leaks. */

const auth = `Basic ${Buffer.from(`${E2E.gatedUser.username}:${E2E.gatedUser.password}`).toString('base64')}`;

test.describe('access gate (DASHBOARD_USERS)', () => {
  test('asks for credentials on pages and /api', async ({ request }) => {
    for (const path of [
      '/collections',
      '/api/collections',
      '/search?q=ada',
      '/api/search?q=ada',
      '/api/index/status',
      '/collections?status=pending',
      '/api/collections?status=pending&sort=-amount',
      '/overview',
      '/lookup',
    ]) {
      const res = await request.get(`${E2E.gatedURL}${path}`, { maxRedirects: 0 });
      expect(res.status()).toBe(401);
      expect(res.headers()['www-authenticate']).toMatch(/^Basic realm="Collections Console"/);
    }
    const api = await request.get(`${E2E.gatedURL}/api/collections`);
    expect(await api.json()).toEqual({
      status: 'error',
      message: 'Sign in to use the dashboard',
      code: 'unauthorized',
    });
  });

  test('lets a configured user in, with a colon in the password', async ({ request, sandbox }) => {
    const res = await request.get(`${E2E.gatedURL}/api/collections`, { headers: { Authorization: auth } });
    expect(res.status()).toBe(200);
    expect((await res.json()).data[0].id).toBe(sandbox.demo.collections.integrated[0]);
    const page = await request.get(`${E2E.gatedURL}/collections`, { headers: { Authorization: auth } });
    expect(page.status()).toBe(200);
    const status = await request.get(`${E2E.gatedURL}/api/index/status`, { headers: { Authorization: auth } });
    expect(status.status()).toBe(200);
  });

  test('refuses a wrong password and another user’s password', async ({ request }) => {
    for (const [user, password] of [
      ['ada', 'wrong'],
      ['ada', 'pw'],
      ['other', E2E.gatedUser.password],
      ['', ''],
    ]) {
      const res = await request.get(`${E2E.gatedURL}/api/collections`, {
        headers: { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
      });
      expect(res.status()).toBe(401);
    }
  });

  test('a signed-in browser uses the whole dashboard', async ({ browser, sandbox }) => {
    const context = await browser.newContext({ httpCredentials: E2E.gatedUser, baseURL: E2E.gatedURL });
    const page = await context.newPage();
    await page.goto('/collections');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByText('11–20 of')).toBeVisible();
    await page.goto(`/collections/${sandbox.demo.collections.integrated[0]}`);
    await expect(page.getByRole('heading', { name: 'Contact' })).toBeVisible();
    await context.close();
  });

  // Shapes that bypassed proxy/middleware-only checks in 2025–2026 advisories.
  const bypasses: { name: string; path: (id: string) => string; headers?: Record<string, string> }[] = [
    { name: 'trailing slash', path: () => '/collections/' },
    { name: '.rsc suffix', path: () => '/collections.rsc' },
    { name: '_rsc query', path: () => '/collections?_rsc=1' },
    { name: 'RSC header', path: () => '/collections', headers: { RSC: '1' } },
    { name: 'router prefetch', path: () => '/collections', headers: { RSC: '1', 'Next-Router-Prefetch': '1' } },
    {
      name: 'segment prefetch',
      path: () => '/collections',
      headers: { RSC: '1', 'Next-Router-Prefetch': '1', 'Next-Router-Segment-Prefetch': '/_tree' },
    },
    { name: 'detail page RSC', path: (id) => `/collections/${id}?_rsc=abc`, headers: { RSC: '1' } },
    { name: 'encoded path', path: () => '/%63ollections' },
    { name: 'encoded api path', path: () => '/api/%63ollections' },
    { name: 'encoded api segment', path: () => '/%61pi/collections' },
    { name: 'encoded slash after api', path: () => '/api%2Fcollections' },
    { name: 'api RSC request', path: () => '/api/collections?_rsc=1', headers: { RSC: '1' } },
    { name: 'upper-case path', path: () => '/COLLECTIONS' },
    { name: 'double slash', path: () => '//api/collections' },
    { name: 'api trailing slash', path: () => '/api/collections/' },
    { name: 'api detail', path: (id) => `/api/collections/${id}` },
    {
      name: 'x-middleware-subrequest (middleware)',
      path: () => '/api/collections',
      headers: { 'x-middleware-subrequest': 'middleware:middleware:middleware:middleware:middleware' },
    },
    {
      name: 'x-middleware-subrequest (proxy)',
      path: () => '/api/collections',
      headers: { 'x-middleware-subrequest': 'proxy:proxy:proxy:proxy:proxy' },
    },
    {
      name: 'x-middleware-subrequest (src)',
      path: () => '/collections',
      headers: {
        'x-middleware-subrequest': 'src/middleware:src/middleware:src/middleware:src/middleware:src/middleware',
      },
    },
    { name: 'provider page', path: (id) => `/providers/${id}` },
    // The page proxy.ts rewrites filtered lists to, asked for by its own name.
    { name: 'filtered view page', path: () => '/collections/filtered?status=pending' },
  ];
  for (const bypass of bypasses) {
    test(`returns no data without credentials: ${bypass.name}`, async ({ request, sandbox }) => {
      const id = sandbox.demo.collections.integrated[0]!;
      const target = bypass.name === 'provider page' ? sandbox.demo.providers[0]! : id;
      const res = await request.get(`${E2E.gatedURL}${bypass.path(target)}`, {
        headers: bypass.headers,
        maxRedirects: 0,
      });
      const body = await res.text();
      expect(res.status(), `status for ${bypass.name}`).not.toBe(200);
      for (const secret of [
        id,
        target,
        ...sandbox.demo.collections.integrated,
        '@example.com',
        'Collections retrieved',
      ])
        expect(body).not.toContain(secret);
    });
  }
});

/**
 * /api is outside proxy.ts's matcher: each route runs the gate and sets the headers itself (lib/server/route.ts).
 * Every route file under app/api, every method, with and without credentials: what the proxy gave, still given.
 */
test.describe('the gate and headers in every /api route (outside the proxy)', () => {
  const routeFiles: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name === 'route.ts') routeFiles.push(path);
    }
  };
  walk('app/api');
  const ungated = new Set(['/api/health', '/api/ready', '/api/metrics']);
  const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

  const pathOf = (file: string, ids: { collection: string; provider: string }) =>
    file
      .replace(/^app/, '')
      .replace(/\/route\.ts$/, '')
      .replace('/collections/[id]', `/collections/${ids.collection}`)
      .replace('/providers/[id]', `/providers/${ids.provider}`)
      .replace('/views/[id]', '/views/view_nosuchview')
      .replace('/notes/[noteId]', '/notes/note_nosuchnote')
      .replace('/tags/[name]', '/tags/nosuchtag')
      .replace('/[...path]', '/no/such/route');
  /** The routes that change something (saved views): their write methods beside GET. */
  const WRITES: Record<string, string[]> = {
    '/api/views': ['POST'],
    '/api/views/view_nosuchview': ['PUT', 'DELETE'],
    '/api/drift': ['POST'],
    '/api/tags': ['POST'],
    '/api/tags/nosuchtag': ['PUT', 'DELETE'],
    '/api/tags/nosuchtag/collections': ['POST'],
    '/api/notes/note_nosuchnote': ['DELETE'],
  };
  /** Notes and tags of a record or a contact (section 16): their writes, by the path's shape. */
  const writesOf = (path: string) =>
    WRITES[path] ??
    (/\/notes$/.test(path) ? ['POST'] : /^\/api\/collections\/[^/]+\/tags$/.test(path) ? ['PUT'] : undefined);

  const expectApiHeaders = (headers: Record<string, string>, where: string) => {
    expect(headers['content-security-policy'], where).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(headers['content-security-policy'], where).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options'], where).toBe('nosniff');
    expect(headers['x-frame-options'], where).toBe('DENY');
    expect(headers['referrer-policy'], where).toBe('no-referrer');
    expect(headers['cache-control'], where).toContain('no-store');
    expect(headers['cache-control'], where).toContain('private');
    expect(headers['x-request-id'], where).toMatch(/^[0-9a-f-]{36}$/);
  };

  test('covers every route file there is', () => {
    expect(routeFiles.length).toBeGreaterThanOrEqual(14);
    expect(routeFiles).toContain(join('app/api/[...path]/route.ts'));
  });

  test('without credentials: 401 for every gated route and method, the headers on every answer', async ({
    request,
    sandbox,
  }) => {
    const ids = { collection: sandbox.demo.collections.integrated[0]!, provider: sandbox.demo.providers[0]! };
    for (const file of routeFiles) {
      const path = pathOf(file, ids);
      for (const method of METHODS) {
        const where = `${method} ${path}`;
        const res = await request.fetch(`${E2E.gatedURL}${path}`, { method, maxRedirects: 0 });
        expectApiHeaders(res.headers(), where);
        if (ungated.has(path)) {
          // Probes answer anyone; the scraper's route has a token of its own.
          if (path === '/api/metrics' && (method === 'GET' || method === 'HEAD'))
            expect(res.headers()['www-authenticate'], where).toBe('Bearer realm="metrics"');
          else expect(res.status(), where).toBe(method === 'GET' || method === 'HEAD' ? 200 : 405);
          continue;
        }
        expect(res.status(), where).toBe(401);
        expect(res.headers()['www-authenticate'], where).toMatch(/^Basic realm="Collections Console"/);
        if (method !== 'HEAD') expect((await res.json()).code, where).toBe('unauthorized');
      }
    }
  });

  test('with credentials: the route answers, other methods 405, an unknown path 404, headers on each', async ({
    request,
    sandbox,
  }) => {
    const ids = { collection: sandbox.demo.collections.integrated[0]!, provider: sandbox.demo.providers[0]! };
    for (const file of routeFiles) {
      const path = pathOf(file, ids);
      for (const method of ['GET', 'POST', 'OPTIONS'] as const) {
        const where = `${method} ${path}`;
        const res = await request.fetch(`${E2E.gatedURL}${path}`, {
          method,
          headers: { Authorization: auth },
          maxRedirects: 0,
        });
        expectApiHeaders(res.headers(), where);
        if (path === '/api/no/such/route') {
          expect(res.status(), where).toBe(404);
          expect(await res.json(), where).toEqual({ status: 'error', message: 'No such API route', code: 'not_found' });
        } else if (writesOf(path)?.includes(method)) {
          // A write without a JSON body: refused by name, after the gate.
          expect(res.status(), where).toBe(400);
        } else if (method !== 'GET') {
          expect(res.status(), where).toBe(405);
          expect(res.headers()['allow'], where).toBe(['GET', ...(writesOf(path) ?? [])].join(', '));
        } else expect(res.status(), where).toBeLessThan(500);
      }
    }
    const download = await request.get(`${E2E.gatedURL}/api/export/collections.csv?live=1`, {
      headers: { Authorization: auth },
    });
    expect(download.headers()['cache-control']).toBe('private, no-store, no-transform');
  });

  test('a request id is the dashboard’s own, never one the client sent', async ({ request }) => {
    for (const headers of [{}, { Authorization: auth }] as Record<string, string>[]) {
      const res = await request.get(`${E2E.gatedURL}/api/collections?limit=1`, {
        headers: { ...headers, 'X-Request-Id': 'forged-0000-by-the-client' },
      });
      expect(res.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers()['x-request-id']).not.toBe('forged-0000-by-the-client');
    }
  });

  test('what Next answers by itself on /api carries no data and the static headers', async ({ request }) => {
    for (const method of ['PROPFIND', 'TRACE']) {
      const res = await request.fetch(`${E2E.gatedURL}/api/collections`, { method });
      expect(res.status(), method).toBeGreaterThanOrEqual(400);
      expect(await res.text(), method).not.toContain('"data"');
      expect(res.headers()['x-content-type-options'], method).toBe('nosniff');
      expect(res.headers()['x-frame-options'], method).toBe('DENY');
    }
  });
});

test.describe('fail-closed start', () => {
  const start = (env: Record<string, string>, port: number) =>
    spawnProcess(binPath('next'), ['start', '-p', String(port), '-H', '127.0.0.1'], env);

  test('refuses a real upstream in production without a gate, and says what to set', async () => {
    const server = start({ API_BASE_URL: 'http://127.0.0.1:9', API_KEY: 'sk_live_never_used' }, E2E.port + 7);
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Refusing to start');
    expect(server.output()).toContain('DASHBOARD_USERS');
    expect(server.output()).not.toContain('sk_live_never_used');
  });

  test('npm start says the refusal before anything is built or started, and never "Ready"', async () => {
    const server = spawnProcess('scripts/start.mjs', [], {
      API_BASE_URL: 'http://127.0.0.1:9',
      API_KEY: 'sk_live_never_used',
      PORT: String(E2E.port + 7),
    });
    expect(await server.exited).toBe(1);
    const output = server.output();
    expect(output).toContain('Refusing to start');
    expect(output).not.toMatch(/Ready|Building|Collections Console on/);
    expect(output).not.toContain('sk_live_never_used');
  });

  test('names the first bad variable', async () => {
    const server = start({ API_TIMEOUT_MS: 'soon' }, E2E.port + 8);
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Invalid configuration: API_TIMEOUT_MS');
  });

  test('starts with DASHBOARD_OPEN=true', async ({ request }) => {
    const port = E2E.port + 9;
    const server = start({ API_BASE_URL: 'http://127.0.0.1:9', API_KEY: 'sk_live_x', DASHBOARD_OPEN: 'true' }, port);
    try {
      await expect
        .poll(async () => (await request.get(`http://127.0.0.1:${port}/api/collections`).catch(() => null))?.status(), {
          timeout: 20_000,
        })
        .toBe(502);
    } finally {
      server.child.kill();
    }
  });
});

test.describe('security headers', () => {
  const expectHardened = (headers: Record<string, string>) => {
    const csp = headers['content-security-policy'] ?? '';
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"])
      expect(csp).toContain(directive);
    expect(csp).not.toContain('unsafe-eval');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['permissions-policy']).toContain('camera=()');
    expect(headers['cache-control']).toContain('no-store');
    expect(headers['cache-control']).toContain('private');
    expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  };

  test('on pages, /api, errors and RSC requests', async ({ request, sandbox }) => {
    const id = sandbox.demo.collections.integrated[0]!;
    for (const [path, headers] of [
      ['/collections', {}],
      [`/collections/${id}`, {}],
      ['/collections/pay_doesnotexist', {}],
      ['/api/collections', {}],
      ['/api/collections/pay_fault_500', {}],
      ['/api/collections/abc', {}],
      ['/collections', { RSC: '1' }],
      [`/providers/${sandbox.demo.providers[0]}`, { RSC: '1', 'Next-Router-Prefetch': '1' }],
      ['/lookup', {}],
    ] as const) {
      const res = await request.get(path, { headers });
      expectHardened(res.headers());
    }
  });

  test('every script carries the nonce of its own response', async ({ request }) => {
    const res = await request.get('/collections');
    const nonce = /'nonce-([^']+)'/.exec(res.headers()['content-security-policy']!)![1];
    const html = await res.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  test('sends HSTS behind HTTPS, on pages and on /api (set there by the routes, outside the proxy)', async ({
    request,
  }) => {
    for (const path of ['/collections', '/api/collections?limit=1', '/api/no/such/route', '/api/health']) {
      const res = await request.get(path, { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(res.headers()['strict-transport-security'], path).toMatch(/max-age=\d+/);
      const plain = await request.get(path);
      expect(plain.headers()['strict-transport-security'], path).toBeUndefined();
    }
  });

  test('the dashboard cannot be framed', async ({ page }) => {
    const framed = page.waitForResponse((r) => r.url() === `${E2E.baseURL}/collections`);
    await page.setContent(`<iframe title="embedded dashboard" src="${E2E.baseURL}/collections"></iframe>`);
    expect((await framed).headers()['x-frame-options']).toBe('DENY');
    // Chromium replaces a refused frame with its error page: the dashboard never renders inside.
    await expect.poll(() => page.frames()[1]?.url()).toMatch(/^chrome-error:/);
    await expect(page.frameLocator('iframe').getByRole('heading', { name: 'Collections' })).toHaveCount(0);
  });
});

test.describe('nothing leaks', () => {
  test('no file sent to browsers contains a key or server-only code', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.push(path);
      }
    };
    walk('.next/static');
    expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(5);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const key of SANDBOX_KEYS) expect(text, file).not.toContain(key);
      // Markers of lib/server: if any is here, server code reached a client bundle.
      for (const marker of [
        'Refusing to start',
        'Invalid configuration:',
        'upstream answer breaks the schema',
        'API_KEY is required',
      ])
        expect(text, file).not.toContain(marker);
    }
  });

  test('every lib/server module starts with server-only', () => {
    const dir = 'lib/server';
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      expect(readFileSync(join(dir, name), 'utf8').startsWith("import 'server-only';"), name).toBe(true);
    }
  });
});
