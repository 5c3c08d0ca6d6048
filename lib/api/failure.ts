import { ERROR_STATUS, type ErrorCode } from './error-codes';

/**
 * A failure as every layer hands it on: the server's error mapper produces it,
 * the error envelope carries it, the browser's queries and the pages render it.
 * A plain object, so it crosses the server/client boundary in dehydrated state.
 */
export type ApiFailure = { code: ErrorCode; message: string; retryAfter?: number; ownerAccount?: OwnerAccount };

/** Another account the user may see that owns a record this one was refused (a 403's hint, contract section 4). */
export type OwnerAccount = { id: string; name: string };

/** The contract's error envelope (section 4) for a failure. */
export type ErrorEnvelope = { status: 'error'; message: string; code: ErrorCode; ownerAccount?: OwnerAccount };

export function errorEnvelope(failure: ApiFailure): ErrorEnvelope {
  const envelope: ErrorEnvelope = { status: 'error', message: failure.message, code: failure.code };
  if (failure.ownerAccount) envelope.ownerAccount = { id: failure.ownerAccount.id, name: failure.ownerAccount.name };
  return envelope;
}

export function isApiFailure(value: unknown): value is ApiFailure {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as Partial<ApiFailure>;
  return typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code) && typeof message === 'string';
}
