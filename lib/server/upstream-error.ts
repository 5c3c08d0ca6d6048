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
