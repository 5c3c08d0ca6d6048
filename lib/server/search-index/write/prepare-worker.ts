import 'server-only';
import { workerData } from 'node:worker_threads';
import type { Collection } from '@/lib/api/schemas';
import { serveRequests } from '../../threads/serve';
import { blindKeys } from '../shared/blind';
import { prepareRecord, type Prepared } from './prepare';

/**
 * A first scan's records prepared on a thread of their own (prepare-thread.ts): each page's seals, keyed
 * tokens, snapshots and phones made beside the request thread, behind it for the CPU (started as background
 * work). The secret stays in this process's memory, as on the request thread.
 */
export type PrepareJob = { secret: string; account: number; accountKey: string };

const { secret, account, accountKey } = workerData as PrepareJob;
const keys = blindKeys(secret);

serveRequests({
  handle: (records: Collection[]): Prepared[] => records.map((c) => prepareRecord(keys, account, accountKey, c)),
});
