import 'server-only';
import { NextResponse } from 'next/server';
import { ERROR_STATUS, errorMessage, type ErrorCode, type ErrorSubject } from '@/lib/api/errors';
import { WWW_AUTHENTICATE } from './access';
import { logger } from './logger';
import { UpstreamError } from './upstream-error';

/**
 * Route-handler plumbing: every answer of the dashboard's API goes through
 * `json` or `fail`, so every one carries no-store and every error has the
 * contract's envelope, status and code.
 */
const NO_STORE = { 'Cache-Control': 'private, no-store' };

export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) {
  return NextResponse.json(body, { status: init.status ?? 200, headers: { ...NO_STORE, ...init.headers } });
}

export function fail(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
  return json({ status: 'error', message, code }, { status: ERROR_STATUS[code], headers });
}

/** Maps anything thrown by the data layer to the contract's error response. */
export function failFrom(error: unknown, subject: ErrorSubject, requestId?: string) {
  if (error instanceof UpstreamError) {
    const headers: Record<string, string> = error.retryAfter !== undefined ? { 'Retry-After': String(error.retryAfter) } : {};
    if (error.code === 'unauthorized') headers['WWW-Authenticate'] = WWW_AUTHENTICATE;
    return fail(error.code, error.message, headers);
  }
  logger.error({ requestId, err: error instanceof Error ? error.message : String(error) }, 'unexpected error in route handler');
  return fail('upstream_error', errorMessage('upstream_error', subject));
}

/** The 405 every route gives for anything but GET (Next's own 405 has no Allow header). */
export function methodNotAllowed() {
  return fail('method_not_allowed', errorMessage('method_not_allowed', 'collections'), { Allow: 'GET' });
}

export const notGet = { POST: methodNotAllowed, PUT: methodNotAllowed, PATCH: methodNotAllowed, DELETE: methodNotAllowed };
