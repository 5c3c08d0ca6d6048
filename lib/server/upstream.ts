import 'server-only';
import pLimit from 'p-limit';
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

export function createUpstreamClient(options: UpstreamOptions) {
  const { baseUrl, key, keyHeader, timeoutMs } = options;
  const retryDelayMs = options.retryDelayMs ?? 100;
  const headers = {
    Accept: 'application/json',
    [keyHeader]: keyHeader.toLowerCase() === 'authorization' ? `Bearer ${key}` : key,
  };
  const limit = pLimit(options.maxConcurrent ?? 32);

  /**
   * What of an upstream body goes to the log: an error envelope's message (no
   * key, at most 200 characters), never a record, which carries customers' PII.
   */
  const describeBody = (text: string) => {
    try {
      const message = (JSON.parse(text) as { message?: unknown }).message;
      if (typeof message === 'string') return { upstreamMessage: message.split(key).join('[redacted]').slice(0, 200) };
    } catch {
      // not JSON
    }
    return { bodyBytes: Buffer.byteLength(text) };
  };

  async function attempt<T>(
    kind: UpstreamRequest['kind'],
    url: string,
    subject: ErrorSubject,
    schema: z.ZodType<T>,
    signal: AbortSignal,
    log: Record<string, unknown>,
  ): Promise<T> {
    let response: Response;
    const started = performance.now();
    try {
      response = await fetch(url, { headers, signal, redirect: 'manual', cache: 'no-store' });
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
    if (status === 200) {
      const parsed = await (options.parse ?? parseHere)(schema, bytes, kind);
      if (!parsed.ok && parsed.reason === 'json') {
        logger.error({ ...log, status, ms, bodyBytes: bytes.byteLength }, 'upstream answered with invalid JSON');
        throw AppError.of('upstream_invalid', subject);
      }
      if (!parsed.ok) {
        logger.error({ ...log, status, ms, field: parsed.field }, 'upstream answer breaks the schema');
        throw AppError.of('upstream_invalid', subject);
      }
      // Every request of the sync is one: at debug, so a terminal shows what a person needs (LOG_LEVEL=debug).
      logger.debug({ ...log, status, ms }, 'upstream ok');
      return parsed.data;
    }
    const text = new TextDecoder().decode(bytes);
    // A user's lookup of an unknown id or another account's is theirs, not the upstream's fault.
    const level = status === 404 || status === 403 ? 'info' : 'warn';
    logger[level]({ ...log, status, ms, ...describeBody(text) }, 'upstream error');
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    if (status === 401) throw AppError.of('upstream_auth', subject);
    if (status === 403) throw AppError.of('forbidden', subject);
    if (status === 404) throw AppError.of('not_found', subject);
    if (status === 429) throw AppError.of('rate_limited', subject, { retryAfter });
    if (status === 502 || status === 503 || status === 504)
      throw new TransientFailure(AppError.of('upstream_error', subject));
    if (status >= 400 && status < 500) throw AppError.of('upstream_rejected', subject);
    throw AppError.of('upstream_error', subject);
  }

  /** GETs one of the three upstream resources and parses it with `schema`. */
  async function get<T>(
    request: UpstreamRequest,
    schema: z.ZodType<T>,
    context: { requestId?: string } = {},
    /** Ends the request early (a cancelled export); reported as the abort, not as a timeout. */
    cancel?: AbortSignal,
  ): Promise<T> {
    const subject = SUBJECT[request.kind];
    const url = upstreamUrl(baseUrl, request);
    // A deadline cleared as soon as the call ends: `AbortSignal.timeout` keeps its signal, and everything the
    // request's listeners hold (the whole request), alive for the full timeout. At 500 requests a second and a
    // 10 s timeout that was 5,000 finished requests in the heap (the load test's 905 MB).
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException('The upstream deadline passed', 'TimeoutError')),
      timeoutMs,
    );
    timer.unref();
    const signal = cancel ? AbortSignal.any([deadline.signal, cancel]) : deadline.signal;
    const log = { requestId: context.requestId, upstream: request.kind, id: 'id' in request ? request.id : undefined };
    const started = performance.now();
    let attempts = 0;
    let outcome = 'ok';
    try {
      const run = (n: number) =>
        limit(() => {
          if (signal.aborted) throw AppError.of('upstream_timeout', subject, { timeoutMs });
          attempts = n;
          return attempt(request.kind, url, subject, schema, signal, { ...log, attempt: n });
        });
      const answer = await pRetry(run, {
        retries: 2,
        minTimeout: retryDelayMs,
        maxTimeout: retryDelayMs * 4,
        randomize: true,
        signal,
        shouldRetry: ({ error }) => error instanceof TransientFailure && !signal.aborted,
      });
      // What the upstream sent that the seed does not describe (a microsecond a record; never throws into a read).
      try {
        options.observe?.answer?.(request.kind, answer);
      } catch {
        // The report is a bystander.
      }
      return answer;
    } catch (error) {
      const failure = (() => {
        if (cancel?.aborted) return cancel.reason as unknown;
        if (error instanceof TransientFailure) return error.final;
        if (error instanceof AppError) return error;
        if (signal.aborted) return AppError.of('upstream_timeout', subject, { timeoutMs });
        logger.error({ ...log, err: String(error) }, 'upstream call failed unexpectedly');
        return AppError.of('upstream_error', subject);
      })();
      outcome = cancel?.aborted ? 'cancelled' : failure instanceof AppError ? failure.code : 'upstream_error';
      throw failure;
    } finally {
      clearTimeout(timer);
      options.observe?.read?.(request.kind, outcome, (performance.now() - started) / 1000, attempts);
    }
  }

  return { get };
}

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;
