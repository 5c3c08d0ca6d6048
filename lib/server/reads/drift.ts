import 'server-only';
import type { z } from 'zod';
import type { driftAcknowledgeBody } from '@/lib/api/inputs';
import { audit, outcomeOf } from '../audit/audit';
import { assertContext, isAdmin, type RequestContext } from '../context';
import { AppError } from '../errors';
import { kept } from './kept';
import type { Runtime } from '../runtime';

/** The schema-drift report (contract section 11): every entry, the baseline apart from what is new since. */
export async function driftReport(rt: Runtime, context: RequestContext) {
  assertContext(context);
  const { entries, baselineAt } = await kept('The schema-drift report', () => rt.drift.report());
  // Who acknowledged is an admin's e-mail: said to admins (as the audit log, theirs alone, says it).
  const admin = isAdmin(context);
  const data = entries.map(({ acknowledged, ...entry }) =>
    acknowledged ? { ...entry, acknowledged: admin ? acknowledged : { at: acknowledged.at } } : entry,
  );
  return { status: 'success' as const, message: 'Schema drift', data, meta: { baselineAt } };
}

/**
 * An admin acknowledges one entry: it joins the baseline (acknowledged again, it keeps its first who and
 * when). Audited (`drift_acknowledge`, the path as its target, its kind and value as the detail), refusals
 * too: 403 `forbidden_role` for anyone else, 404 for an entry the report does not hold.
 */
export async function acknowledgeDrift(
  rt: Runtime,
  context: RequestContext,
  body: z.infer<typeof driftAcknowledgeBody>,
) {
  assertContext(context);
  const detail = { kind: body.kind, ...(body.value === undefined ? {} : { value: body.value }) };
  try {
    if (!isAdmin(context)) throw new AppError('forbidden_role', 'Only admins acknowledge schema drift');
    if (!(await kept('The schema-drift report', () => rt.drift.acknowledge(body, context.principal.name))))
      throw new AppError('not_found', 'The schema-drift report has no such entry');
    audit(rt.audit, context, 'drift_acknowledge', body.path, 'ok', detail);
  } catch (error) {
    audit(rt.audit, context, 'drift_acknowledge', body.path, outcomeOf(error), detail);
    throw error;
  }
  return driftReport(rt, context);
}
