import { z } from 'zod';

/**
 * The dashboard's error codes (contract section 4): one table from code to
 * HTTP status, shared by the route handlers, the pages and the browser.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  upstream_auth: 502,
  upstream_rejected: 502,
  upstream_error: 502,
  upstream_unreachable: 502,
  upstream_invalid: 502,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export const errorBodySchema = z.object({
  status: z.literal('error'),
  message: z.string(),
  code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Errors worth retrying from the browser: the upstream may be back in a moment. */
export function isTransientCode(code: ErrorCode): boolean {
  return code === 'upstream_error' || code === 'upstream_unreachable' || code === 'upstream_timeout' || code === 'rate_limited';
}
