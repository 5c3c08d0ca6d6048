import { parentPort } from 'node:worker_threads';
import { collectionListEnvelopeSchema, parseBody } from '@/lib/api/envelopes';

/**
 * The list pages' parser thread (page-parser.ts): each page's bytes decoded as UTF-8, parsed and checked
 * against the list envelope's schema here, and the outcome posted back. Holds nothing between pages.
 */
export type PageJob = { id: number; bytes: ArrayBuffer };
export type PageAnswer = { id: number; parsed: ReturnType<typeof parseBody> };

parentPort!.on('message', ({ id, bytes }: PageJob) => {
  let parsed: PageAnswer['parsed'];
  try {
    parsed = parseBody(collectionListEnvelopeSchema, bytes);
  } catch {
    // Never met (parseBody answers every body); a page is never left waiting for its answer.
    parsed = { ok: false, reason: 'json' };
  }
  parentPort!.postMessage({ id, parsed } satisfies PageAnswer);
});
