import { errorMessage, type ErrorCode } from '@/lib/api/error-codes';
import { isApiFailure, type ApiFailure } from '@/lib/api/failure';

/**
 * The browser's side of the failure translation: a failed /api response (the
 * error envelope, or whatever a proxy in between answered) read back into the
 * ApiFailure the UI renders.
 */
export async function failureFrom(response: Response): Promise<ApiFailure> {
  const retryAfter = Number(response.headers.get('retry-after')) || undefined;
  const body: unknown = await response.json().catch(() => null);
  if (isApiFailure(body)) return { code: body.code, message: body.message, retryAfter };
  const code: ErrorCode =
    response.status === 504 ? 'upstream_timeout' : response.status === 401 ? 'unauthorized' : 'upstream_error';
  return { code, message: errorMessage(code, 'collections'), retryAfter };
}

export function networkFailure(): ApiFailure {
  return { code: 'upstream_unreachable', message: 'The dashboard could not be reached. Check your connection.' };
}
