import { z } from 'zod';
import { holdsControl } from './control-characters';

/**
 * `/api/audit` and the `/audit` page's filters (contract section 10): who, what,
 * which record, when, and "searched for" (the text is hashed on the server the
 * way searches are stored, never kept). Shared by the route (strict: a 400
 * naming the parameter) and the page.
 */
export const AUDIT_ACTION_NAMES = [
  'view_collection',
  'view_provider',
  'view_contact',
  'search',
  'filter',
  'export',
  'sign_in',
  'sign_out',
  'access_denied',
  'view_save',
  'view_delete',
  'drift_acknowledge',
  'find_owner',
  'note_add',
  'note_delete',
  'tag_create',
  'tag_change',
  'tag_delete',
  'tag_apply',
  'tag_remove',
] as const;

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    // PostgreSQL cannot compare a NUL (a store error, where this is a 400), and no one types a control character.
    .refine((v) => !holdsControl(v), 'must not hold control characters')
    .optional()
    .transform((v) => v || undefined);
const day = z
  .string()
  .trim()
  .optional()
  .transform((v) => v || undefined)
  .refine(
    (v) => v === undefined || (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v))),
    'must be a date (YYYY-MM-DD)',
  );

export const auditQuerySchema = z
  .object({
    user: text(320),
    action: z
      .enum(AUDIT_ACTION_NAMES)
      .optional()
      .or(z.literal('').transform(() => undefined)),
    target: text(200),
    searched: text(200),
    from: day,
    to: day,
    page: z.coerce.number().int('must be an integer').min(1, 'must be at least 1').default(1),
    limit: z.coerce.number().int('must be an integer').min(1).max(100, 'must be 1 to 100').default(50),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'must not be after to', path: ['from'] });

export type AuditQuery = z.output<typeof auditQuerySchema>;

export type AuditRow = {
  at: string;
  user: string;
  role: string;
  action: string;
  target: string | null;
  detail: Record<string, unknown> | null;
  requestId: string;
  outcome: string;
  /** The account's id; null for signing in and out, which are no account's. */
  account: string | null;
};

/** A strict read of a URL's query, as `{ ok, value }` or the parameter and its problem. */
export function parseAuditQuery(search: URLSearchParams) {
  const raw = Object.fromEntries([...search].filter(([k]) => k in auditQuerySchema.shape));
  const result = auditQuerySchema.safeParse(raw);
  if (result.success) return { ok: true as const, value: result.data };
  const issue = result.error.issues[0]!;
  return { ok: false as const, param: String(issue.path[0] ?? 'query'), message: issue.message };
}
