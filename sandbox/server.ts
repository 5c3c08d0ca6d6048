import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type Database from 'better-sqlite3';
import { isCollectionId, isProviderId } from '../lib/api/ids';
import { parseState, pagingSchema } from '../lib/api/list-state';
import { createActivity, type Activity } from './activity';
import { loadFixtures } from './fixtures';
import {
  badShapeCollection,
  bareCollection,
  bareProvider,
  createFlakyCounter,
  faultForId,
  faultForPage,
  RETRY_AFTER_SECONDS,
  unknownValuesCollection,
  unknownValuesProvider,
  type Fault,
} from './faults';

export type SandboxOptions = {
  db: Database.Database;
  /** Reserved ids and pages trigger faults (SANDBOX_FAULTS=1). */
  faults?: boolean;
  /** How long the `slow` fault waits before answering. */
  slowMs?: number;
  /** Every /public answer waits a random 0..delayMs (load tests of a slow upstream). */
  delayMs?: number;
  /** Activity mode (SANDBOX_ACTIVITY=1): a change every this many ms. Needs a writable database. */
  activityMs?: number;
};

type Account = { id: string; name: string; listed: number; head: number };
type Reply = { status: number; body: string; headers?: Record<string, string> };

const json = (status: number, value: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body: JSON.stringify(value),
  headers,
});
const error = (status: number, message: string, headers?: Record<string, string>) =>
  json(status, { status: 'error', message }, headers);
const INVALID_KEY = () => error(401, 'Invalid API key');

/** The key from `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
function keyOf(req: IncomingMessage): string | null {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header) return header;
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match ? match[1]! : null;
}

export function createSandbox(options: SandboxOptions) {
  const { db } = options;
  const slowMs = options.slowMs ?? 15_000;
  const flaky = createFlakyCounter();
  // What the upstream was asked, newest last (faults on only): tests count the requests a feature made.
  const requests: { at: string; method: string; path: string; status: number }[] = [];
  const REQUEST_LOG_SIZE = 2_000;
  const fixtures = loadFixtures(db, Boolean(options.faults));
  // The data changes only on a writable database: activity mode, and the test routes (with faults on).
  const activity: Activity | null = db.readonly ? null : createActivity(db, { protectedIds: fixtureIds(fixtures) });
  if (activity && options.activityMs) activity.start(options.activityMs);
  const q = {
    account: db.prepare('SELECT id, name, listed, head_pos AS head FROM accounts WHERE api_key = ?'),
    page: db
      .prepare('SELECT body FROM collections WHERE account_id = ? AND list_pos >= ? AND list_pos < ? ORDER BY list_pos')
      .pluck(),
    collection: db.prepare('SELECT account_id AS owner, body FROM collections WHERE id = ?'),
    provider: db.prepare('SELECT account_id AS owner, body FROM providers WHERE id = ?'),
  };

  function list(account: Account, search: URLSearchParams): Reply {
    const parsed = parseState(pagingSchema, search);
    if (!parsed.ok) return error(400, parsed.message);
    const { page, limit } = parsed.value;
    const start = (page - 1) * limit;
    const from = account.head + start;
    const rows = start < account.listed ? (q.page.all(account.id, from, from + limit) as string[]) : [];
    const meta = {
      count: account.listed,
      next: start + limit < account.listed ? page + 1 : null,
      prev: page > 1 ? page - 1 : null,
    };
    // Records are stored as the JSON we send: splice them in rather than parse and re-serialise.
    return {
      status: 200,
      body: `{"status":"success","message":"Collections retrieved successfully","data":[${rows.join(',')}],"meta":${JSON.stringify(meta)}}`,
    };
  }

  function one(kind: 'collection' | 'provider', account: Account, id: string): Reply {
    const label = kind === 'collection' ? 'Collection' : 'Provider';
    const valid = kind === 'collection' ? isCollectionId(id) : isProviderId(id);
    const row = valid ? (q[kind].get(id) as { owner: string; body: string } | undefined) : undefined;
    if (!row) return error(404, `${label} not found`);
    if (row.owner !== account.id) return error(403, `${label} belongs to a different account`);
    return { status: 200, body: `{"status":"success","message":"${label} retrieved successfully","data":${row.body}}` };
  }

  /** The reply a fault stands for; `null` means answer normally. */
  async function faulted(
    fault: Fault,
    kind: 'collection' | 'provider' | 'list',
    id: string,
  ): Promise<Reply | 'reset' | null> {
    const record = () => (kind === 'provider' ? unknownValuesProvider(id) : unknownValuesCollection(id));
    const ok = (data: unknown) =>
      json(
        200,
        kind === 'list'
          ? {
              status: 'success',
              message: 'Collections retrieved successfully',
              data: [data],
              meta: { count: 1, next: null, prev: null },
            }
          : {
              status: 'success',
              message: `${kind === 'provider' ? 'Provider' : 'Collection'} retrieved successfully`,
              data,
            },
      );
    switch (fault.kind) {
      case 'slow':
        await new Promise((r) => setTimeout(r, slowMs));
        return ok(record());
      case '500':
        return error(500, 'Internal server error');
      case '503':
        return error(503, 'Service temporarily unavailable');
      case 'malformed':
        return { status: 200, body: '{"status":"success","data":{"id":"pay_' };
      case 'badshape':
        return ok(kind === 'provider' ? { ...record(), enabled: 'yes' } : badShapeCollection(id));
      case 'unknown':
        return ok(record());
      case '401':
        return INVALID_KEY();
      case '429':
        return error(429, 'Too many requests', { 'Retry-After': String(RETRY_AFTER_SECONDS) });
      case '400':
        return error(400, 'Bad request');
      case 'reset':
        return 'reset';
      case 'empty':
        if (kind === 'list')
          return json(200, {
            status: 'success',
            message: 'Collections retrieved successfully',
            data: [],
            meta: { count: 0, next: null, prev: null },
          });
        return ok(kind === 'provider' ? bareProvider(id) : bareCollection(id));
      case 'flaky':
        return flaky(fault.token) ? error(503, 'Service temporarily unavailable') : ok(record());
    }
  }

  /**
   * Test-only changes, with faults on and a writable database: add a collection at the head of an
   * account (`POST /__sandbox/collections`, body `{ account?, record? }`), or mark one paid
   * (`POST /__sandbox/collections/{id}/complete`).
   */
  async function change(req: IncomingMessage, path: string): Promise<Reply> {
    if (!activity || !options.faults) return error(404, 'Not found');
    let body: { account?: string; record?: Record<string, unknown> } = {};
    try {
      const text = await readBody(req);
      body = text ? (JSON.parse(text) as typeof body) : {};
    } catch {
      return error(400, 'Body must be JSON');
    }
    if (path === '/__sandbox/collections') {
      try {
        return json(201, { status: 'success', data: activity.add(body.account ?? 'acc_demo', body.record ?? {}) });
      } catch (err) {
        return error(400, (err as Error).message);
      }
    }
    const match = /^\/__sandbox\/collections\/([^/]+)\/complete$/.exec(path);
    if (!match) return error(404, 'Not found');
    const done = activity.complete(match[1]!);
    return done
      ? json(200, { status: 'success', data: done })
      : error(409, 'Not changed (unknown, protected or already completed)');
  }

  async function route(req: IncomingMessage, url: URL): Promise<Reply | 'reset'> {
    const path = url.pathname;
    if (req.method === 'POST') return change(req, path);
    if (path === '/__sandbox/health') return json(200, { status: 'ok' });
    if (path === '/__sandbox/fixtures') return json(200, fixtures);
    if (path === '/__sandbox/requests' && options.faults) return json(200, { data: requests });

    const match = /^\/public\/(collections|providers)(?:\/([^/]+))?$/.exec(path);
    if (!match || (match[1] === 'providers' && !match[2])) return error(404, 'Not found');

    if (options.delayMs) await new Promise((r) => setTimeout(r, Math.random() * options.delayMs!));
    const key = keyOf(req);
    const account = key ? (q.account.get(key) as Account | undefined) : undefined;
    if (!account) return INVALID_KEY();

    let id: string;
    try {
      id = match[2] ? decodeURIComponent(match[2]) : '';
    } catch {
      return error(404, `${match[1] === 'providers' ? 'Provider' : 'Collection'} not found`);
    }
    const kind = !id ? 'list' : match[1] === 'providers' ? 'provider' : 'collection';

    if (options.faults) {
      const params = kind === 'list' ? parseState(pagingSchema, url.searchParams) : null;
      const fault = kind !== 'list' ? faultForId(id) : params?.ok ? faultForPage(params.value.page) : null;
      const reply = fault ? await faulted(fault, kind, kind === 'list' ? 'pay_fault_list' : id) : null;
      if (reply) return reply;
    }
    return kind === 'list' ? list(account, url.searchParams) : one(kind, account, id);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    let reply: Reply | 'reset';
    const testChange =
      req.method === 'POST' && url.pathname.startsWith('/__sandbox/collections') && activity && options.faults;
    if (req.method !== 'GET' && req.method !== 'HEAD' && !testChange) {
      reply = error(405, 'Method not allowed', { Allow: 'GET, HEAD' });
    } else {
      try {
        reply = await route(req, url);
      } catch (err) {
        console.error('[sandbox]', err);
        reply = error(500, 'Internal server error');
      }
    }
    if (options.faults && !url.pathname.startsWith('/__sandbox/')) {
      requests.push({
        at: new Date().toISOString(),
        method: req.method ?? 'GET',
        path: url.pathname + url.search,
        status: reply === 'reset' ? 0 : reply.status,
      });
      if (requests.length > REQUEST_LOG_SIZE) requests.shift();
    }
    if (reply === 'reset') {
      req.socket.destroy();
      return;
    }
    res.writeHead(reply.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(reply.body),
      ...reply.headers,
    });
    res.end(req.method === 'HEAD' ? undefined : reply.body);
  }

  const server = createServer((req, res) => void handle(req, res));
  server.on('close', () => activity?.stop());
  return server;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 100_000) reject(new Error('too large'));
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** Every id the fixtures name: activity mode leaves these records as they are. */
function fixtureIds(fixtures: ReturnType<typeof loadFixtures>): Set<string> {
  const ids = new Set<string>();
  for (const account of fixtures.accounts) {
    for (const id of [...account.collections.integrated, ...account.collections.notIntegrated]) ids.add(id);
    for (const id of Object.values(account.examples)) if (id) ids.add(id);
  }
  return ids;
}
