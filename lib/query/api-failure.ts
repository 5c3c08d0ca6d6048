import { ERROR_STATUS, errorMessage, type ErrorCode } from '@/lib/api/error-codes';

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
  const body: unknown = await response.json().catch(() => null);
  if (isApiFailure(body) && typeof body.message === 'string') return { code: body.code, message: body.message, retryAfter };
  const code: ErrorCode = response.status === 504 ? 'upstream_timeout' : response.status === 401 ? 'unauthorized' : 'upstream_error';
  return { code, message: errorMessage(code, 'collections'), retryAfter };
}

export function networkFailure(): ApiFailure {
  return { code: 'upstream_unreachable', message: 'The dashboard could not be reached. Check your connection.' };
}
