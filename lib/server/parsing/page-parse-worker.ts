import { collectionListEnvelopeSchema, parseBody } from '@/lib/api/envelopes';
import { serveRequests } from '../threads/serve';

/**
 * The list pages' parser thread (page-parser.ts): each page's bytes decoded as UTF-8, parsed and checked
 * against the list envelope's schema here, and the outcome posted back. Holds nothing between pages.
 */
export type PageJob = { bytes: ArrayBuffer };
export type PageAnswer = ReturnType<typeof parseBody>;

// parseBody answers every body; were it ever to throw, the failure goes back and the page is read where it
// was asked (page-parser.ts), so none is left waiting.
serveRequests({ handle: ({ bytes }: PageJob): PageAnswer => parseBody(collectionListEnvelopeSchema, bytes) });
