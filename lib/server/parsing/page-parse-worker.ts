import { parentPort } from 'node:worker_threads';
import { collectionListEnvelopeSchema, parseBody } from '@/lib/api/envelopes';

/**
 * The list pages' parser thread (page-parser.ts): each page's bytes decoded as UTF-8, parsed and checked
 * against the list envelope's schema here, and the outcome posted back. Holds nothing between pages.
 */
export type PageJob = { id: number; bytes: ArrayBuffer };
export type PageAnswer = { id: number; parsed: ReturnType<typeof parseBody> };

// parseBody answers every body; were it ever to throw, the thread's `error` reads its waiting pages where they
// were asked (page-parser.ts), so none is left waiting.
parentPort!.on('message', ({ id, bytes }: PageJob) =>
  parentPort!.postMessage({ id, parsed: parseBody(collectionListEnvelopeSchema, bytes) } satisfies PageAnswer),
);
