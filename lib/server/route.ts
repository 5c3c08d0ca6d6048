import 'server-only';
import type { z } from 'zod';
import type { ErrorSubject } from '@/lib/api/errors';
import { basicUserName, SESSION_COOKIE } from './access';
import { refusedEntry } from './audit/audit';
import { EVERY_ACCOUNT } from './accounts/config';
import { contextFromHeaders, isAdmin, type RequestContext } from './context';
import { getConfig } from './env';
import { AppError, failureResponse, json, methodNotAllowed, toFailure } from './errors';
import { logger } from './logger';
import { runtime, type Runtime } from './runtime';
import { securityHeaders } from './security-headers';

/**
 * The one shape of a route handler (after dub's `withWorkspace`). `/api` is not
 * in proxy.ts's matcher (its machinery cost ~2 ms of CPU a request), so this is
 * where an API request meets the gate, and everything the proxy gives a page is
 * given here to every answer, whatever the method: a request id of our own (a
 * client's `X-Request-Id` is never trusted), the access gate (401 before anything
 * else; admins-only routes 403), the security headers and `private, no-store`.
 * Then: parse the path parameters and the query with the route's zod schemas →
 * read (the data layer checks the context again) → the seed's envelope, or the
 * one error mapper. Handlers hold no try/catch; anything but GET (and HEAD,
 * which Next answers with GET) is a 405 after the gate.
 */
type Input<P extends z.ZodType | undefined> = P extends z.ZodType ? z.output<P> : undefined;

type RouteSpec<P extends z.ZodType | undefined, Q extends z.ZodType | undefined> = {
  /** The route's pattern, the metrics' label (never the path: ids would make a series each). */
  route: string;
  subject: ErrorSubject;
  params?: P;
  query?: Q;
  /** Admins only (contract section 10): a viewer gets 403 `forbidden_role` before the read (which checks again). */
  admin?: boolean;
  /** Takes `account=all` (every account the user may see); the context is then the user's default account's. */
  everyAccount?: boolean;
  /** A download that streams: `no-transform` keeps a proxy's compression from holding rows back. */
  download?: boolean;
  /** The envelope's body, or a Response of its own (a download). */
  read: (
    input: { params: Input<P>; query: Input<Q>; request: Request },
    context: RequestContext,
    rt: Runtime,
  ) => Promise<unknown>;
};

type Handler = (request: Request, route?: { params: Promise<unknown> }) => Promise<Response>;

function parse(schema: z.ZodType | undefined, raw: unknown, subject: ErrorSubject): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  throw new AppError('bad_request', result.error.issues[0]?.message ?? AppError.of('bad_request', subject).message);
}

const hasSessionCookie = (cookie: string | null) =>
  cookie !== null && cookie.split(';').some((part) => part.trimStart().startsWith(`${SESSION_COOKIE}=`));

/** Gives an /api answer what proxy.ts gives a page: the security headers, the request id, no-store. */
function finish(request: Request, requestId: string, response: Response, download = false): Response {
  const https =
    request.url.startsWith('https:') || request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
  const headers = {
    ...securityHeaders({
      nonce: Buffer.from(crypto.randomUUID()).toString('base64'),
      dev: process.env.NODE_ENV === 'development',
      https,
    }),
    'X-Request-Id': requestId,
    'Cache-Control': download ? 'private, no-store, no-transform' : 'private, no-store',
  };
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * The access gate of an API request: the context, or a refusal that is logged and, when credentials were
 * brought and failed, audited (a request with none is someone not signed in yet).
 */
async function gate(
  rt: Runtime,
  request: Request,
  requestId: string,
  options: { admin?: boolean; everyAccount?: boolean },
): Promise<RequestContext> {
  const url = new URL(request.url);
  const path = url.pathname;
  const asked = url.searchParams.get('account');
  let context: RequestContext;
  try {
    // `all` where a route reads every account: the context is the user's default account's.
    const account = asked === EVERY_ACCOUNT && options.everyAccount ? null : asked;
    context = await contextFromHeaders(request.headers, requestId, account);
  } catch (error) {
    const code = (error as AppError).code;
    if (code === 'forbidden_account') {
      logger.warn({ requestId, path, action: 'access_denied' }, 'account not visible');
      rt.audit.record(refusedEntry(requestId, null, path, 'forbidden_account', asked));
    }
    if (code !== 'unauthorized') throw error;
    logger.warn({ requestId, path, action: 'access_denied' }, 'access denied');
    const authorization = request.headers.get('authorization');
    if (authorization || hasSessionCookie(request.headers.get('cookie')))
      rt.audit.record(refusedEntry(requestId, basicUserName(authorization), path, 'unauthorized'));
    throw error;
  }
  if (options.admin && !isAdmin(context)) {
    const name = context.principal.name;
    logger.warn({ requestId, path, user: name, action: 'access_denied' }, 'admins only');
    rt.audit.record(refusedEntry(requestId, name, path, 'forbidden_role', context.account));
    throw AppError.of('forbidden_role', 'collections');
  }
  return context;
}

/**
 * Runs `answer` behind the gate and gives whatever comes out (the answer, or the failure in the contract's
 * envelope) the request id, the security headers and no-store.
 */
function gated(
  options: { route: string; subject: ErrorSubject; admin?: boolean; download?: boolean; everyAccount?: boolean },
  answer: (
    request: Request,
    context: RequestContext,
    rt: Runtime,
    route?: { params: Promise<unknown> },
  ) => Promise<Response>,
): Handler {
  return async (request, route) => {
    const requestId = crypto.randomUUID();
    const started = performance.now();
    // The one call of the request: everything below is handed the runtime, as the request's account sees it.
    const rt = runtime();
    let response: Response;
    try {
      const context = await gate(rt, request, requestId, options);
      response = await answer(request, context, rt.forAccount(context.account), route);
    } catch (error) {
      response = failureResponse(toFailure(error, options.subject, requestId));
    }
    finish(request, requestId, response, options.download);
    rt.metrics.recordRequest(options.route, request.method, response.status, (performance.now() - started) / 1000);
    return response;
  };
}

type WriteMethod = 'POST' | 'PUT' | 'DELETE';

/** A method that changes something (saved views): its body's schema, and what it does. */
export type WriteSpec<P extends z.ZodType | undefined, B extends z.ZodType | undefined> = {
  body?: B;
  /** The most its JSON body may hold, when more than MAX_BODY (a bulk tagging's 1,000 ids). */
  maxBody?: number;
  /** The envelope's body and its status (201 for a creation). */
  run: (
    input: { params: Input<P>; body: Input<B>; request: Request },
    context: RequestContext,
    rt: Runtime,
  ) => Promise<{ status?: number; body: unknown }>;
};

/** Every method a route file exports: GET as given, HEAD by Next from GET, writes as given, the rest 405. */
function methods(
  spec: { route: string; subject: ErrorSubject; admin?: boolean },
  GET: Handler,
  writes: Partial<Record<WriteMethod, Handler>> = {},
) {
  const allow = ['GET', ...Object.keys(writes)].join(', ');
  const refuse = gated(spec, async () => {
    const response = methodNotAllowed();
    response.headers.set('Allow', allow);
    return response;
  });
  return {
    GET,
    POST: writes.POST ?? refuse,
    PUT: writes.PUT ?? refuse,
    PATCH: refuse,
    DELETE: writes.DELETE ?? refuse,
    OPTIONS: refuse,
  };
}

/** The most a write's JSON body may hold: a view is a few hundred bytes. */
const MAX_BODY = 16_384;

/**
 * A write must come from this dashboard's own pages (no other site may change what a signed-in user owns):
 * the browser's Sec-Fetch-Site says same-origin (or none: typed, a script of the user's own), and an
 * Origin, when sent as one, is ours (our no-referrer policy makes a same-origin fetch send "null"). A body
 * must be JSON, which no cross-site form can send without a preflight we never answer.
 */
async function writeBody(request: Request, hasBody: boolean, maxBody = MAX_BODY): Promise<unknown> {
  const site = request.headers.get('sec-fetch-site');
  const origin = request.headers.get('origin');
  const own = new URL(request.url).origin;
  const dashboard = getConfig().dashboardUrl;
  const ours = [own, 'null', dashboard ? new URL(dashboard).origin : own];
  if ((site && site !== 'same-origin' && site !== 'none') || (origin && !ours.includes(origin)))
    throw new AppError('forbidden', 'The request did not come from this dashboard’s own pages');
  if (!hasBody) return undefined;
  if (!/^application\/json(;|$)/i.test(request.headers.get('content-type') ?? ''))
    throw new AppError('bad_request', 'Invalid body: send it as JSON (Content-Type: application/json)');
  const text = await request.text();
  if (text.length > maxBody)
    throw new AppError('bad_request', `Invalid body: at most ${maxBody.toLocaleString('en')} bytes`);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('bad_request', 'Invalid body: it is not JSON');
  }
}

export function apiRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  C extends z.ZodType | undefined = undefined,
>(
  spec: RouteSpec<P, Q> & {
    write?: { POST?: WriteSpec<P, B>; PUT?: WriteSpec<P, C>; DELETE?: WriteSpec<P, undefined> };
  },
) {
  const GET = gated(spec, async (request, context, rt, route) => {
    const params = parse(spec.params, await route?.params, spec.subject) as Input<P>;
    // `account=` is the gate's (above), never a route's own parameter.
    const search = new URL(request.url).searchParams;
    search.delete('account');
    const query = parse(spec.query, search, spec.subject) as Input<Q>;
    const result = await spec.read({ params, query, request }, context, rt);
    return result instanceof Response ? result : json(result);
  });
  const writes: Partial<Record<WriteMethod, Handler>> = {};
  for (const [method, write] of Object.entries(spec.write ?? {}) as [WriteMethod, WriteSpec<P, z.ZodType>][]) {
    writes[method] = gated(spec, async (request, context, rt, route) => {
      const params = parse(spec.params, await route?.params, spec.subject) as Input<P>;
      const raw = await writeBody(request, Boolean(write.body), write.maxBody);
      const body = parse(write.body, raw, spec.subject) as never;
      const result = await write.run({ params, body, request }, context, rt);
      return json(result.body, { status: result.status ?? 200 });
    });
  }
  return methods(spec, GET, writes);
}

/** Any other /api path: the gate first (401), then 404 in the contract's envelope, whatever the method. */
export function unknownApiRoute() {
  const missing = gated({ route: '/api/[...path]', subject: 'collections' }, async () => {
    throw new AppError('not_found', 'No such API route');
  });
  return { GET: missing, POST: missing, PUT: missing, PATCH: missing, DELETE: missing, OPTIONS: missing };
}

/**
 * A route outside the user gate (probes, the metrics scraper with its own token): the same headers, request
 * id and no-store on every answer, and 405 for other methods. Not counted in the request metrics, as before.
 */
export function openRoute(read: (request: Request, rt: Runtime) => Promise<Response> | Response) {
  const open =
    (answer: (request: Request, rt: Runtime) => Promise<Response> | Response): Handler =>
    async (request) => {
      const requestId = crypto.randomUUID();
      let response: Response;
      try {
        response = await answer(request, runtime());
      } catch (error) {
        response = failureResponse(toFailure(error, 'collections', requestId));
      }
      return finish(request, requestId, response);
    };
  const refuse = open(methodNotAllowed);
  return { GET: open(read), POST: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse, OPTIONS: refuse };
}
