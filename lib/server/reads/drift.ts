import 'server-only';
import type { z } from 'zod';
import type { driftAcknowledgeBody } from '@/lib/api/inputs';
import { audit, outcomeOf } from '../audit/audit';
import { assertContext, isAdmin, type RequestContext } from '../context';
import { AppError } from '../errors';
import { runtime } from '../runtime';

/** The schema-drift report (contract section 11): every entry, the baseline apart from what is new since. */
export async function driftReport(context: RequestContext) {
  assertContext(context);
  const { entries, baselineAt } = await runtime().drift.report();
  return { status: 'success' as const, message: 'Schema drift', data: entries, meta: { baselineAt } };
}

/**
 * An admin acknowledges one entry: it joins the baseline. Audited (`drift_acknowledge`, the entry as its
 * target: the path, and `=value` for a value), refusals too: 403 `forbidden_role` for anyone else, 404 for
 * an entry the report does not hold.
 */
export async function acknowledgeDrift(context: RequestContext, body: z.infer<typeof driftAcknowledgeBody>) {
  assertContext(context);
  const target = body.kind === 'value' ? `${body.path}=${body.value}` : body.path;
  try {
    if (!isAdmin(context)) throw new AppError('forbidden_role', 'Only admins acknowledge schema drift');
    if (!(await runtime().drift.acknowledge(body, context.principal.name)))
      throw new AppError('not_found', 'The schema-drift report has no such entry');
    audit(runtime().audit, context, 'drift_acknowledge', target, 'ok');
  } catch (error) {
    audit(runtime().audit, context, 'drift_acknowledge', target, outcomeOf(error));
    throw error;
  }
  return driftReport(context);
}
