import 'server-only';
import { errorMessage, type ErrorCode, type ErrorSubject } from '@/lib/api/errors';

/** A failure on the way to or from the upstream, already mapped to the contract's code. */
export class UpstreamError extends Error {
  readonly code: ErrorCode;
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, options: { retryAfter?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'UpstreamError';
    this.code = code;
    this.retryAfter = options.retryAfter;
  }

  static of(code: ErrorCode, subject: ErrorSubject, detail?: { retryAfter?: number; timeoutMs?: number }) {
    return new UpstreamError(code, errorMessage(code, subject, detail), { retryAfter: detail?.retryAfter });
  }
}

/** Internal marker for an attempt that may succeed if repeated. */
export class TransientFailure extends Error {
  constructor(readonly final: UpstreamError) {
    super(final.message);
  }
}

/** The plain, serialisable failure a page hands to the client (no stack, no cause). */
export function toApiFailure(error: unknown, subject: ErrorSubject): { code: ErrorCode; message: string; retryAfter?: number } {
  if (error instanceof UpstreamError) return error.retryAfter === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, retryAfter: error.retryAfter };
  return { code: 'upstream_error', message: errorMessage('upstream_error', subject) };
}
