import 'server-only';
import { forbidden, notFound, unauthorized } from 'next/navigation';
import { cache } from 'react';
import { errorMessage } from '@/lib/api/error-codes';
import type { ApiFailure } from '@/lib/api/failure';
import { isResourceId, type ResourceKind } from '@/lib/api/ids';
import type { Collection, Provider } from '@/lib/api/schemas';
import { requestContext } from '../context';
import { toFailure } from '../errors';
import { answerPageWith } from '../page-status';
import type { Runtime } from '../runtime';
import { viewCollection, viewProvider } from './records';

/**
 * The one read of a record page (collection or provider): context and gate,
 * then the live record, memoised per render so metadata and page share one
 * fetch. `recordForPage` turns the failures that have their own page into
 * real HTTP statuses before anything streams (404, 403, 401); every other
 * failure comes back for the page to render with Retry, under the status `/api` gives it (page-status.ts).
 */
type RecordOf = { collection: Collection; provider: Provider };
export type RecordResult<K extends ResourceKind> = { ok: true; data: RecordOf[K] } | { ok: false; failure: ApiFailure };

const read = {
  collection: cache(async (rt: Runtime, id: string) => (await viewCollection(rt, await requestContext(), id)).data),
  provider: cache(async (rt: Runtime, id: string) => (await viewProvider(rt, await requestContext(), id)).data),
} satisfies { [K in ResourceKind]: (rt: Runtime, id: string) => Promise<RecordOf[K]> };

/** The record or its failure; never throws (generateMetadata uses it as it is). */
export async function readRecord<K extends ResourceKind>(rt: Runtime, kind: K, id: string): Promise<RecordResult<K>> {
  if (!isResourceId(kind, id))
    return { ok: false, failure: { code: 'not_found', message: errorMessage('not_found', kind) } };
  try {
    return { ok: true, data: (await read[kind](rt, id)) as RecordOf[K] };
  } catch (error) {
    return { ok: false, failure: toFailure(error, kind) };
  }
}

/** The record, or a failure to show inline; a malformed or unknown id, another account's and no access interrupt. */
export async function recordForPage<K extends ResourceKind>(
  rt: Runtime,
  kind: K,
  id: string,
): Promise<RecordResult<K>> {
  const result = await readRecord(rt, kind, id);
  if (!result.ok) {
    if (result.failure.code === 'not_found') notFound();
    // Another of the user's accounts owns it: the page says whose, with a link there (still a 403).
    if (result.failure.code === 'forbidden' && !result.failure.ownerAccount) forbidden();
    if (result.failure.code === 'unauthorized') unauthorized();
    answerPageWith(result.failure.code);
  }
  return result;
}
