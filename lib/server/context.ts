import 'server-only';
import { headers } from 'next/headers';
import { cache } from 'react';
import { authenticate } from './access';
import type { Identity } from './auth/identity';
import { getConfig } from './env';
import { AppError } from './errors';

/**
 * Who is reading, and under which request id. Every read of the data layer
 * takes one. Request contexts are built only by `contextFromHeaders`, which
 * runs the access gate (the same gate proxy.ts runs: never one place alone);
 * background jobs build a system context; the data layer refuses any context
 * that was not built here.
 */
export type Principal = ({ kind: 'user' } & Identity) | { kind: 'system'; name: string };
export type RequestContext = Readonly<{ requestId: string; principal: Principal }>;

const issued = new WeakSet<RequestContext>();

function issue(requestId: string, principal: Principal): RequestContext {
  const context = Object.freeze({ requestId, principal });
  issued.add(context);
  return context;
}

/**
 * The context of a request, from its headers; throws `unauthorized` when the gate refuses. A page's request id
 * is the one proxy.ts set (it overwrites any the client sent); an API route passes its own.
 */
export async function contextFromHeaders(
  requestHeaders: Headers,
  requestId = requestHeaders.get('x-request-id') ?? crypto.randomUUID(),
): Promise<RequestContext> {
  const access = await authenticate(getConfig(), {
    authorization: requestHeaders.get('authorization'),
    cookie: requestHeaders.get('cookie'),
  });
  if (!access.ok) throw AppError.of('unauthorized', 'collections');
  return issue(requestId, { kind: 'user', ...access.identity });
}

/** The current request's context in a server component (one per render). */
export const requestContext = cache(async (): Promise<RequestContext> => contextFromHeaders(await headers()));

/** A context for work no user asked for (the index's sync, a CLI): its own request id per run. */
export function systemContext(name: string): RequestContext {
  return issue(`${name}-${crypto.randomUUID()}`, { kind: 'system', name });
}

/** The data layer's check: only contexts built above may read. */
export function assertContext(context: RequestContext): void {
  if (!issued.has(context)) throw AppError.of('unauthorized', 'collections');
}

/** Whether the context may do what only admins may (export contact details, read the audit log). */
export function isAdmin(context: RequestContext): boolean {
  return context.principal.kind === 'system' || context.principal.role === 'admin';
}

/** The data layer's check for admin-only work: an issued context of an admin, else `forbidden_role`. */
export function assertAdmin(context: RequestContext): void {
  assertContext(context);
  if (!isAdmin(context)) throw AppError.of('forbidden_role', 'collections');
}
