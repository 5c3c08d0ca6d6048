import { ERROR_STATUS, errorBodySchema, errorMessage, type ErrorCode } from '@/lib/api/errors';

/**
 * The error every query carries, on the server and in the browser alike: a
 * plain object (it crosses the server/client boundary in dehydrated state).
 */
export type ApiFailure = { code: ErrorCode; message: string; retryAfter?: number };

export function isApiFailure(value: unknown): value is ApiFailure {
  return typeof value === 'object' && value !== null && 'code' in value && typeof (value as ApiFailure).code === 'string' && (value as ApiFailure).code in ERROR_STATUS;
}

/** Reads a failed /api response into an ApiFailure, whatever its body. */
export async function failureFrom(response: Response): Promise<ApiFailure> {
  const retryAfter = Number(response.headers.get('retry-after')) || undefined;
  const parsed = errorBodySchema.safeParse(await response.json().catch(() => null));
  if (parsed.success) return { code: parsed.data.code, message: parsed.data.message, retryAfter };
  const code: ErrorCode = response.status === 504 ? 'upstream_timeout' : response.status === 401 ? 'unauthorized' : 'upstream_error';
  return { code, message: errorMessage(code, 'collections'), retryAfter };
}

export function networkFailure(): ApiFailure {
  return { code: 'upstream_unreachable', message: 'The dashboard could not be reached. Check your connection.' };
}
