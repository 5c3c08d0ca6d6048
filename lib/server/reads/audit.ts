import 'server-only';
import type { AuditQuery, AuditRow } from '@/lib/api/audit';
import { assertAdmin, type RequestContext } from '../context';
import { audit, searchTarget } from '../audit/audit';
import { DEFAULT_ACCOUNT_ID } from '../accounts/config';
import { isStatementTimeout } from '../database/connect';
import { AppError } from '../errors';
import type { Runtime } from '../runtime';

/**
 * `/api/audit` and the `/audit` page (admins only): entries newest first,
 * filtered by user, action, target or what was searched for (hashed as searches
 * are stored), and a time range in UTC days. Entries still waiting to be
 * written are flushed first, so what a user just did is there.
 */
export async function readAudit(rt: Runtime, context: RequestContext, query: AuditQuery) {
  const { audit: log, database } = rt;
  try {
    assertAdmin(context);
  } catch (error) {
    audit(log, context, 'access_denied', '/audit', 'forbidden_role');
    throw error;
  }
  await log.flush();
  // Read where the searches read, not through the writer (a sync's transaction holds it): the flush committed.
  const db = await database.readable();
  if (!db) throw new AppError('index_unavailable', 'The audit log cannot be read right now: its database is not open');
  // One account's entries. Signing in and out names no account and shows in every account's log; the rest
  // written before accounts were named (no account, or the one-account setup's `default`) are the first's.
  const first = rt.config.accounts[0]!.id === context.account;
  const sessions = ['sign_in', 'sign_out'];
  let where = db
    .selectFrom('audit_entries')
    .where((eb) =>
      eb.or([
        eb('account', '=', context.account),
        eb.and([eb('account', 'is', null), eb('action', 'in', sessions)]),
        ...(first
          ? [
              eb('account', '=', DEFAULT_ACCOUNT_ID),
              eb.and([eb('account', 'is', null), eb('action', 'not in', sessions)]),
            ]
          : []),
      ]),
    );
  if (query.user) where = where.where('user', '=', query.user.toLowerCase());
  if (query.action) where = where.where('action', '=', query.action);
  const target = query.searched ? searchTarget(query.searched) : query.target;
  if (target) where = where.where('target', '=', target);
  if (query.from) where = where.where('at', '>=', `${query.from}T00:00:00.000Z`);
  if (query.to)
    where = where.where('at', '<', new Date(Date.parse(`${query.to}T00:00:00.000Z`) + 86_400_000).toISOString());
  const [rows, total] = await Promise.all([
    where
      .selectAll()
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
    where.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]).catch((error: unknown) => {
    // The reads' bound (connect.ts READ_STATEMENT_TIMEOUT_MS) reached: a clear 503, as an index read's.
    if (isStatementTimeout(error))
      throw new AppError('index_busy', 'The audit log took too long to read; narrow the filter or try again');
    throw error;
  });
  const count = Number(total.n);
  const data: AuditRow[] = rows.map((r) => ({
    at: r.at,
    user: r.user,
    role: r.role,
    action: r.action,
    target: r.target,
    detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null,
    requestId: r.request_id,
    outcome: r.outcome,
    account: r.account ?? null,
  }));
  const last = Math.max(1, Math.ceil(count / query.limit));
  return {
    status: 'success' as const,
    message: 'Audit entries',
    data,
    meta: {
      count,
      next: query.page < last ? query.page + 1 : null,
      prev: query.page > 1 ? Math.min(query.page - 1, last) : null,
    },
  };
}
