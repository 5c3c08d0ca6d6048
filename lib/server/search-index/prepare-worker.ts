import 'server-only';
import { parentPort, workerData } from 'node:worker_threads';
import {
  collectionListEnvelopeSchema,
  parseBody,
  type CollectionListEnvelope,
  type ParsedBody,
} from '@/lib/api/envelopes';
import type { Collection } from '@/lib/api/schemas';
import { blindKeys } from './blind';
import { prepareRecord, storable, type Prepared } from './prepare';
import { lowerThreadPriority } from '../database/thread-priority';

/**
 * A first scan's records prepared on a thread of their own (prepare-thread.ts): each page's seals, keyed
 * tokens, snapshots and phones, which were ~40 % of the request thread's time in a first sync of 1,000,000
 * (profiled 2026-11-29), made beside it. The secret stays in this process's memory, as on the request thread.
 *
 * A first scan's list pages come here as the upstream sent them (`page`): parsed and checked as the list pages'
 * parser thread does (parsing/page-parse-worker.ts), and their records prepared at once, so a page is neither
 * cloned back to the request thread and out again to be prepared, nor parsed on a thread of its own.
 */
export type PrepareJob = { secret: string; account: number; accountKey: string };
export type PrepareRequest = { id: number; records: Collection[] } | { id: number; page: ArrayBuffer };
export type PrepareAnswer =
  | { id: number; prepared: Prepared[] }
  | {
      id: number;
      parsed: ParsedBody<CollectionListEnvelope>;
      /** The page's records prepared, in order; null when it did not parse or one failed (the caller prepares). */
      prepared: Prepared[] | null;
    }
  | { id: number; error: string };

const { secret, account, accountKey } = workerData as PrepareJob;
const keys = blindKeys(secret);
// Behind the request thread for the CPU, as the writer's thread (sqlite-write-worker.ts says what it bought).
lowerThreadPriority();

const prepared = (c: Collection) => prepareRecord(keys, account, accountKey, storable(c));

parentPort!.on('message', (request: PrepareRequest) => {
  const { id } = request;
  let answer: PrepareAnswer;
  if ('page' in request) {
    // parseBody answers every body; a record that cannot be prepared is left to the caller, as a page is.
    const parsed = parseBody(collectionListEnvelopeSchema, request.page);
    let made: Prepared[] | null = null;
    try {
      made = parsed.ok ? parsed.data.data.map(prepared) : null;
    } catch {
      made = null;
    }
    answer = { id, parsed, prepared: made };
  } else {
    try {
      answer = { id, prepared: request.records.map((c) => prepareRecord(keys, account, accountKey, c)) };
    } catch (error) {
      answer = { id, error: String(error) };
    }
  }
  parentPort!.postMessage(answer);
});
