import 'server-only';
import pLimit, { type LimitFunction } from 'p-limit';
import pRetry from 'p-retry';
import type { z } from 'zod';
import { parseBody, type ParsedBody } from '@/lib/api/envelopes';
import type { ErrorSubject } from '@/lib/api/errors';
import { isCollectionId, isProviderId } from '@/lib/api/ids';
import { isValidState, PAGING, pagingSchema, stateQuery } from '@/lib/api/list-state';
import { AppError } from './errors';
import { logger } from './logger';

/**
 * The one way to the upstream API. Paths come from three fixed templates whose
 * only variable part is an id that already passed the contract's id rule, so
 * no input can name another path or host. One deadline (API_TIMEOUT_MS) covers
 * every attempt; transient failures are retried at most twice, with jitter.
 */
export type UpstreamRequest =
  { kind: 'list'; page: number; limit: number } | { kind: 'collection'; id: string } | { kind: 'provider'; id: string };

export type UpstreamOptions = {
  baseUrl: string;
  key: string;
  keyHeader: string;
  timeoutMs: number;
  retryDelayMs?: number;
  /** Upstream requests in flight at once; more wait their turn (within their deadline). */
  maxConcurrent?: number;
  /** Who hears of each read (the runtime passes the drift report and the metrics); both optional. */
  observe?: UpstreamObservers;
  /**
   * Reads a successful answer's body (decode, parse, check against `schema`) where it likes: the runtime's
   * parses list pages on a thread of their own (parsing/page-parser.ts). Unset: here, on the calling thread.
   */
  parse?: <T>(schema: z.ZodType<T>, bytes: ArrayBuffer, kind: UpstreamRequest['kind']) => Promise<ParsedBody<T>>;
};

export type UpstreamObservers = {
  /** An answer as parsed: what it holds that the seed does not describe is the drift report's. */
  answer?(operation: UpstreamRequest['kind'], envelope: unknown): void;
  /** A finished read: its operation, outcome (`ok` or the error code), time and attempts. */
  read?(operation: UpstreamRequest['kind'], outcome: string, seconds: number, attempts: number): void;
};

/** Internal marker for an attempt that may succeed if repeated. */
class TransientFailure extends Error {
  constructor(readonly final: AppError) {
    super(final.message);
  }
}

const SUBJECT: Record<UpstreamRequest['kind'], ErrorSubject> = {
  list: 'collections',
  collection: 'collection',
  provider: 'provider',
};

/** The upstream URL for a request, or a thrown bad_request when its input breaks the rules. */
export function upstreamUrl(baseUrl: string, request: UpstreamRequest): string {
  switch (request.kind) {
    case 'list': {
      const paging = { page: request.page, limit: request.limit };
      if (!isValidState(pagingSchema, paging)) throw AppError.of('bad_request', 'collections');
      return `${baseUrl}/public/collections?${stateQuery(pagingSchema, paging, { explicit: PAGING })}`;
    }
    case 'collection':
      if (!isCollectionId(request.id)) throw AppError.of('bad_request', 'collection');
      return `${baseUrl}/public/collections/${request.id}`;
    case 'provider':
      if (!isProviderId(request.id)) throw AppError.of('bad_request', 'provider');
      return `${baseUrl}/public/providers/${request.id}`;
  }
}

/** Retry-After as whole seconds, from either of its two forms. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

const parseHere = <T>(schema: z.ZodType<T>, bytes: ArrayBuffer) => Promise.resolve(parseBody(schema, bytes));

/** What every call of one client shares: its options and what was made of them once. */
type Client = {
  options: UpstreamOptions;
  retryDelayMs: number;
  headers: Record<string, string>;
  /** The turn each attempt waits for: at most `maxConcurrent` in flight. */
  limit: LimitFunction;
};

/** One call as its attempts see it: where it goes, its signal, its log fields, and how many were made. */
type Call = {
  kind: UpstreamRequest['kind'];
  url: string;
  subject: ErrorSubject;
  signal: AbortSignal;
  log: Record<string, unknown>;
  attempts: number;
};

export function createUpstreamClient(options: UpstreamOptions) {
  const { key, keyHeader } = options;
  const client: Client = {
    options,
    retryDelayMs: options.retryDelayMs ?? 100,
    headers: {
      Accept: 'application/json',
      [keyHeader]: keyHeader.toLowerCase() === 'authorization' ? `Bearer ${key}` : key,
    },
    limit: pLimit(options.maxConcurrent ?? 32),
  };

  /** GETs one of the three upstream resources and parses it with `schema`. */
  function get<T>(
    request: UpstreamRequest,
    schema: z.ZodType<T>,
    context: { requestId?: string } = {},
    /** Ends the request early (a cancelled export); reported as the abort, not as a timeout. */
    cancel?: AbortSignal,
  ): Promise<T> {
    return getWith(client, request, schema, context, cancel);
  }

  return { get };
}

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;

/** A call: its deadline, its attempts under the client's limit and retries, and what it tells the observers. */
async function getWith<T>(
  client: Client,
  request: UpstreamRequest,
  schema: z.ZodType<T>,
  context: { requestId?: string },
  cancel: AbortSignal | undefined,
): Promise<T> {
  const { timeoutMs, observe } = client.options;
  const subject = SUBJECT[request.kind];
  const url = upstreamUrl(client.options.baseUrl, request);
  // A deadline cleared as soon as the call ends: `AbortSignal.timeout` keeps its signal, and everything the
  // request's listeners hold (the whole request), alive for the full timeout: under load, thousands of
  // finished requests kept in the heap (decision 0021).
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException('The upstream deadline passed', 'TimeoutError')),
    timeoutMs,
  );
  timer.unref();
  const signal = cancel ? AbortSignal.any([deadline.signal, cancel]) : deadline.signal;
  const log = { requestId: context.requestId, upstream: request.kind, id: 'id' in request ? request.id : undefined };
  const call: Call = { kind: request.kind, url, subject, signal, log, attempts: 0 };
  const started = performance.now();
  let outcome = 'ok';
  try {
    const answer = await withRetries(client, call, schema);
    // What the upstream sent that the seed does not describe (a microsecond a record; never throws into a read).
    try {
      observe?.answer?.(request.kind, answer);
    } catch {
      // The report is a bystander.
    }
    return answer;
  } catch (error) {
    const failure = failureOf(error, call, cancel, timeoutMs);
    outcome = cancel?.aborted ? 'cancelled' : failure instanceof AppError ? failure.code : 'upstream_error';
    throw failure;
  } finally {
    clearTimeout(timer);
    observe?.read?.(request.kind, outcome, (performance.now() - started) / 1000, call.attempts);
  }
}

/** The call's attempts, each in its turn: at most three, the transient failures retried with jitter. */
function withRetries<T>(client: Client, call: Call, schema: z.ZodType<T>): Promise<T> {
  const { signal, subject } = call;
  const { timeoutMs } = client.options;
  const run = (n: number) =>
    client.limit(() => {
      if (signal.aborted) throw AppError.of('upstream_timeout', subject, { timeoutMs });
      call.attempts = n;
      return attempt(client, call, schema, { ...call.log, attempt: n });
    });
  return pRetry(run, {
    retries: 2,
    minTimeout: client.retryDelayMs,
    maxTimeout: client.retryDelayMs * 4,
    randomize: true,
    signal,
    shouldRetry: ({ error }) => error instanceof TransientFailure && !signal.aborted,
  });
}

/** What a failed call throws: the cancel's reason, the attempt's error, the deadline, or an upstream_error. */
function failureOf(error: unknown, call: Call, cancel: AbortSignal | undefined, timeoutMs: number): unknown {
  if (cancel?.aborted) return cancel.reason as unknown;
  if (error instanceof TransientFailure) return error.final;
  if (error instanceof AppError) return error;
  if (call.signal.aborted) return AppError.of('upstream_timeout', call.subject, { timeoutMs });
  logger.error({ ...call.log, err: String(error) }, 'upstream call failed unexpectedly');
  return AppError.of('upstream_error', call.subject);
}

/** One request and its answer: the parsed body, or a thrown AppError (a TransientFailure when worth repeating). */
async function attempt<T>(client: Client, call: Call, schema: z.ZodType<T>, log: Record<string, unknown>): Promise<T> {
  const { subject, signal } = call;
  const { timeoutMs } = client.options;
  let response: Response;
  const started = performance.now();
  try {
    response = await fetch(call.url, { headers: client.headers, signal, redirect: 'manual', cache: 'no-store' });
  } catch (cause) {
    if (signal.aborted) throw AppError.of('upstream_timeout', subject, { timeoutMs });
    const reason = (cause as { cause?: { code?: string; message?: string } }).cause;
    logger.warn({ ...log, err: reason?.code ?? reason?.message ?? String(cause) }, 'upstream unreachable');
    throw new TransientFailure(AppError.of('upstream_unreachable', subject));
  }
  const bytes = await response.arrayBuffer().catch(() => {
    if (signal.aborted) throw AppError.of('upstream_timeout', subject, { timeoutMs });
    throw new TransientFailure(AppError.of('upstream_unreachable', subject));
  });
  const status = response.status;
  const ms = Math.round(performance.now() - started);
  if (status === 200) return parsedAnswer(client, call, schema, bytes, { ...log, status, ms });
  const text = new TextDecoder().decode(bytes);
  // A user's lookup of an unknown id or another account's is theirs, not the upstream's fault.
  const level = status === 404 || status === 403 ? 'info' : 'warn';
  logger[level]({ ...log, status, ms, ...describeBody(text, client.options.key) }, 'upstream error');
  throw errorOf(status, subject, parseRetryAfter(response.headers.get('retry-after')));
}

/** A 200's body, decoded and checked against `schema` where the options say; upstream_invalid when it breaks. */
async function parsedAnswer<T>(
  client: Client,
  call: Call,
  schema: z.ZodType<T>,
  bytes: ArrayBuffer,
  log: Record<string, unknown>,
): Promise<T> {
  const parsed = await (client.options.parse ?? parseHere)(schema, bytes, call.kind);
  if (!parsed.ok && parsed.reason === 'json') {
    logger.error({ ...log, bodyBytes: bytes.byteLength }, 'upstream answered with invalid JSON');
    throw AppError.of('upstream_invalid', call.subject);
  }
  if (!parsed.ok) {
    logger.error({ ...log, field: parsed.field }, 'upstream answer breaks the schema');
    throw AppError.of('upstream_invalid', call.subject);
  }
  // Every request of the sync is one: at debug, so a terminal shows what a person needs (LOG_LEVEL=debug).
  logger.debug(log, 'upstream ok');
  return parsed.data;
}

/** The error an upstream status other than 200 stands for; 502, 503 and 504 are worth another attempt. */
function errorOf(status: number, subject: ErrorSubject, retryAfter: number | undefined): Error {
  if (status === 401) return AppError.of('upstream_auth', subject);
  if (status === 403) return AppError.of('forbidden', subject);
  if (status === 404) return AppError.of('not_found', subject);
  if (status === 429) return AppError.of('rate_limited', subject, { retryAfter });
  if (status === 502 || status === 503 || status === 504)
    return new TransientFailure(AppError.of('upstream_error', subject));
  if (status >= 400 && status < 500) return AppError.of('upstream_rejected', subject);
  return AppError.of('upstream_error', subject);
}

/**
 * What of an upstream body goes to the log: an error envelope's message (no
 * key, at most 200 characters), never a record, which carries customers' PII.
 */
function describeBody(text: string, key: string) {
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === 'string') return { upstreamMessage: message.split(key).join('[redacted]').slice(0, 200) };
  } catch {
    // not JSON
  }
  return { bodyBytes: Buffer.byteLength(text) };
}
