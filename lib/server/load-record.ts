import 'server-only';
import type { ErrorSubject } from '@/lib/api/errors';
import type { ApiFailure } from '@/lib/query/api-failure';
import { toApiFailure } from './upstream-error';

/** A detail page's read: the record, or the failure it should render. */
export async function loadRecord<T>(read: () => Promise<{ data: T }>, subject: ErrorSubject): Promise<{ ok: true; data: T } | { ok: false; failure: ApiFailure }> {
  try {
    return { ok: true, data: (await read()).data };
  } catch (error) {
    return { ok: false, failure: toApiFailure(error, subject) };
  }
}
