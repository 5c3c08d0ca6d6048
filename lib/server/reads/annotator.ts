import 'server-only';
import type { Annotator } from '../annotations/service';
import { audit, outcomeOf } from '../audit/audit';
import type { AuditAction } from '../audit/log';
import { assertContext, isAdmin, type RequestContext } from '../context';
import type { Runtime } from '../runtime';

/**
 * Who writes a note or a tag, as notes and the History name them: the signed-in identity (an OIDC e-mail,
 * lower-cased; a Basic user name), or "anyone" without an access gate, as saved views' owners.
 */
export function annotatorOf(context: RequestContext): Annotator {
  assertContext(context);
  const p = context.principal;
  const name =
    p.kind === 'system'
      ? `system:${p.name}`
      : p.via === 'open'
        ? 'anyone'
        : p.via === 'session'
          ? p.name.toLowerCase()
          : p.name;
  return { name, admin: isAdmin(context) };
}

/** Runs a change and writes its audit entry with the outcome (`ok` or the error code) and what `detail` says. */
export async function auditedChange<T>(
  rt: Runtime,
  context: RequestContext,
  action: AuditAction,
  target: string | null,
  change: () => Promise<T>,
  detail: (result: T | null) => Record<string, unknown>,
): Promise<T> {
  try {
    const result = await change();
    audit(rt.audit, context, action, target, 'ok', detail(result));
    return result;
  } catch (error) {
    audit(rt.audit, context, action, target, outcomeOf(error), detail(null));
    throw error;
  }
}
