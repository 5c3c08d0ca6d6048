import 'server-only';
import { NextResponse } from 'next/server';
import { ERROR_STATUS, errorMessage, type ErrorCode, type ErrorSubject } from '@/lib/api/errors';
import { errorEnvelope, type ApiFailure, type OwnerAccount } from '@/lib/api/failure';
import { WWW_AUTHENTICATE } from './access';
import { logger } from './logger';

/**
 * The server's one failure type and its one translator: whatever a read
 * throws becomes an ApiFailure (the contract's code, the dashboard's own
 * sentence), and an ApiFailure becomes the error envelope with its status and
 * headers. Route handlers, record pages, the list prefetch and proxy.ts all
 * answer through here.
 */
const BRAND = Symbol.for('collections-console.app-error');

export class AppError extends Error {
  readonly [BRAND] = true;
  readonly code: ErrorCode;
  readonly retryAfter?: number;
  /** For a refused record: the other account the user may see that owns it. */
  readonly ownerAccount?: OwnerAccount;

  constructor(
    code: ErrorCode,
    message: string,
    options: { retryAfter?: number; cause?: unknown; ownerAccount?: OwnerAccount } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.retryAfter = options.retryAfter;
    this.ownerAccount = options.ownerAccount;
  }

  static of(code: ErrorCode, subject: ErrorSubject, detail?: { retryAfter?: number; timeoutMs?: number }) {
    return new AppError(code, errorMessage(code, subject, detail), { retryAfter: detail?.retryAfter });
  }

  /**
   * By brand, not by class: Next bundles instrumentation (where the index runs) and each route apart,
   * so an AppError thrown by the index service is another copy of this class.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/** Anything thrown on the way to data, as the plain failure the user sees. Unexpected errors are logged here. */
export function toFailure(error: unknown, subject: ErrorSubject, requestId?: string): ApiFailure {
  if (error instanceof AppError) {
    const failure: ApiFailure = { code: error.code, message: error.message };
    if (error.retryAfter !== undefined) failure.retryAfter = error.retryAfter;
    if (error.ownerAccount) failure.ownerAccount = error.ownerAccount;
    return failure;
  }
  logger.error({ requestId, err: error instanceof Error ? error.message : String(error) }, 'unexpected error');
  return { code: 'upstream_error', message: errorMessage('upstream_error', subject) };
}

const NO_STORE = { 'Cache-Control': 'private, no-store' };

/** Every answer of the dashboard's API: JSON, no-store. */
export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) {
  return NextResponse.json(body, { status: init.status ?? 200, headers: { ...NO_STORE, ...init.headers } });
}

/** The error envelope for a failure, with its status, `Retry-After` and, for the gate, `WWW-Authenticate`. */
export function failureResponse(failure: ApiFailure, headers: Record<string, string> = {}) {
  const extra: Record<string, string> = { ...headers };
  if (failure.retryAfter !== undefined) extra['Retry-After'] = String(failure.retryAfter);
  if (failure.code === 'unauthorized') extra['WWW-Authenticate'] = WWW_AUTHENTICATE;
  return json(errorEnvelope(failure), { status: ERROR_STATUS[failure.code], headers: extra });
}

/** The 405 every route gives for anything but GET (Next's own 405 has no Allow header). */
export function methodNotAllowed() {
  return failureResponse(
    { code: 'method_not_allowed', message: errorMessage('method_not_allowed', 'collections') },
    { Allow: 'GET' },
  );
}
