import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type Database from 'better-sqlite3';
import { isCollectionId, isProviderId } from '../lib/api/ids';
import { parseState, pagingSchema } from '../lib/api/list-state';
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
};

type Account = { id: string; name: string; listed: number };
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
  const fixtures = loadFixtures(db, Boolean(options.faults));
  const q = {
    account: db.prepare('SELECT id, name, listed FROM accounts WHERE api_key = ?'),
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
    const rows = start < account.listed ? (q.page.all(account.id, start, start + limit) as string[]) : [];
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

  async function route(req: IncomingMessage, url: URL): Promise<Reply | 'reset'> {
    const path = url.pathname;
    if (path === '/__sandbox/health') return json(200, { status: 'ok' });
    if (path === '/__sandbox/fixtures') return json(200, fixtures);

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
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      reply = error(405, 'Method not allowed', { Allow: 'GET, HEAD' });
    } else {
      try {
        reply = await route(req, url);
      } catch (err) {
        console.error('[sandbox]', err);
        reply = error(500, 'Internal server error');
      }
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

  return createServer((req, res) => void handle(req, res));
}
