import 'server-only';
import { parentPort, workerData } from 'node:worker_threads';
import type { Collection } from '@/lib/api/schemas';
import { blindKeys } from '../shared/blind';
import { prepareRecord, type Prepared } from './prepare';
import { lowerThreadPriority } from '../../database/thread-priority';

/**
 * A first scan's records prepared on a thread of their own (prepare-thread.ts): each page's seals, keyed
 * tokens, snapshots and phones, which were ~40 % of the request thread's time in a first sync of 1,000,000
 * (profiled 2026-11-29), made beside it. The secret stays in this process's memory, as on the request thread.
 */
export type PrepareJob = { secret: string; account: number; accountKey: string };
export type PrepareRequest = { id: number; records: Collection[] };
export type PrepareAnswer = { id: number; prepared: Prepared[] } | { id: number; error: string };

const { secret, account, accountKey } = workerData as PrepareJob;
const keys = blindKeys(secret);
// Behind the request thread for the CPU, as the writer's thread (sqlite-write-worker.ts says what it bought).
lowerThreadPriority();

parentPort!.on('message', ({ id, records }: PrepareRequest) => {
  let answer: PrepareAnswer;
  try {
    answer = { id, prepared: records.map((c) => prepareRecord(keys, account, accountKey, c)) };
  } catch (error) {
    answer = { id, error: String(error) };
  }
  parentPort!.postMessage(answer);
});
