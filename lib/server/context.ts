import 'server-only';
import { headers } from 'next/headers';
import { cache } from 'react';
import { authenticate, cookieValue } from './access';
import { ACCOUNT_COOKIE, ACCOUNT_HEADER, chooseAccount } from './accounts/access';
import type { Identity, Role } from './auth/identity';
import { getConfig } from './env';
import { AppError } from './errors';

/**
 * Who is reading, and under which request id. Every read of the data layer
 * takes one. Request contexts are built only by `contextFromHeaders`, which
 * runs the access gate (the same gate proxy.ts runs: never one place alone);
 * background jobs build a system context; the data layer refuses any context
 * that was not built here.
 */
export type Principal =
  | ({ kind: 'user' } & Identity & {
        /** The role the global settings give, before an account's own lists. */ globalRole: Role;
      })
  | { kind: 'system'; name: string };
/** `account`: the id of the account the request reads (one the user may see), named in every audit entry. */
export type RequestContext = Readonly<{ requestId: string; principal: Principal; account: string }>;

const issued = new WeakSet<RequestContext>();

function issue(requestId: string, principal: Principal, account: string): RequestContext {
  const context = Object.freeze({ requestId, principal, account });
  issued.add(context);
  return context;
}

export { ACCOUNT_HEADER };

/**
 * The context of a request, from its headers; throws `unauthorized` when the gate refuses, and `bad_request` or
 * `forbidden_account` when the account asked for (`account`: the URL's `account=`, or the header proxy.ts set
 * for a page) is no account or not one the user may see. Without one: the user's last account, else their
 * first. The principal's role is their role in that account. A page's request id is the one proxy.ts set (it
 * overwrites any the client sent); an API route passes its own.
 */
export async function contextFromHeaders(
  requestHeaders: Headers,
  requestId = requestHeaders.get('x-request-id') ?? crypto.randomUUID(),
  account: string | null = requestHeaders.get(ACCOUNT_HEADER),
): Promise<RequestContext> {
  const config = getConfig();
  const cookie = requestHeaders.get('cookie');
  const access = await authenticate(config, { authorization: requestHeaders.get('authorization'), cookie });
  if (!access.ok) throw AppError.of('unauthorized', 'collections');
  const choice = chooseAccount(config, access.identity, account, cookieValue(cookie, ACCOUNT_COOKIE));
  if (!choice.ok) throw new AppError(choice.code, choice.message);
  const principal = { kind: 'user' as const, ...access.identity, role: choice.role, globalRole: access.identity.role };
  return issue(requestId, principal, choice.account.id);
}

/** The current request's context in a server component (one per render). */
export const requestContext = cache(async (): Promise<RequestContext> => contextFromHeaders(await headers()));

/** The same user's context in another account they may see (the 403 hint asks the others); null if they may not. */
export async function contextInAccount(context: RequestContext, account: string): Promise<RequestContext | null> {
  assertContext(context);
  if (context.principal.kind !== 'user') return issue(context.requestId, context.principal, account);
  const { via, name, displayName, groups, globalRole } = context.principal;
  const choice = chooseAccount(getConfig(), { via, name, displayName, groups, role: globalRole }, account);
  return choice.ok ? issue(context.requestId, { ...context.principal, role: choice.role }, account) : null;
}

/** A context for work no user asked for (the index's sync, a CLI): its own request id per run. */
export function systemContext(name: string, account = getConfig().accounts[0]!.id): RequestContext {
  return issue(`${name}-${crypto.randomUUID()}`, { kind: 'system', name }, account);
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
