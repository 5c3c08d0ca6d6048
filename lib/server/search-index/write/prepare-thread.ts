import 'server-only';
import { Worker } from 'node:worker_threads';
import type { Collection } from '@/lib/api/schemas';
import { bundled, sourceThread } from '../../database/threads';
import type { Prepared } from './prepare';
import type { PrepareAnswer, PrepareJob, PrepareRequest } from './prepare-worker';

/**
 * A first scan's records prepared on a thread of its own (prepare-worker.ts), beside the request thread
 * that reads the upstream's pages and sends the writes, and the writer's thread that runs them. Started at
 * the first page it is given and ended after `IDLE_MS` without one: a first scan (or a rebuild) keeps it,
 * the rescans after it (whose few changed records the request thread prepares) do not.
 *
 * Measured on a first sync of 1,000,000 collections (2026-11-29, bench/README): preparing was ~40 % of the
 * request thread's time, the thread every step waits on.
 */
export type PrepareThread = {
  /** The records prepared, in order; rejects when the thread failed or was closed (the caller prepares them). */
  prepare(records: Collection[]): Promise<Prepared[]>;
  /** Ends the thread; what it was preparing is rejected. */
  close(): Promise<void>;
  /** Whether its thread is up now (it ends when idle). */
  running(): boolean;
  /** Records it has prepared so far. */
  prepared(): number;
};

/** How long the thread stays without a page before it ends. */
export const IDLE_MS = 10_000;
/**
 * How long a page may take on the thread (~15 ms a page of 100; a first scan's step hands it ten at a time):
 * past it the thread is taken for stuck (a module that never loaded, an answer lost), ended, and what it held
 * prepared by the caller, so a sync step (and a shutdown waiting for it) never waits on it for good.
 */
export const ANSWER_MS = 30_000;
/** Threads that ended unasked (failed, stuck) after which no other is started: the caller prepares everything. */
const GIVE_UP_AFTER = 3;

export function prepareThread(job: PrepareJob, options: { idleMs?: number; answerMs?: number } = {}): PrepareThread {
  const idleMs = options.idleMs ?? IDLE_MS;
  const answerMs = options.answerMs ?? ANSWER_MS;
  let worker: Worker | null = null;
  let nextId = 0;
  const waiting = new Map<number, { resolve(made: Prepared[]): void; reject(error: unknown): void }>();
  let idle: NodeJS.Timeout | null = null;
  /** The oldest page's deadline (every answer moves it on: pages are answered in order). */
  let deadline: NodeJS.Timeout | null = null;
  let closed = false;
  let failures = 0;
  let prepared = 0;

  const failAll = (error: unknown) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  const clear = (timer: NodeJS.Timeout | null) => {
    if (timer) clearTimeout(timer);
    return null;
  };

  /** Ends the thread now up, failing what it held: `unasked` (it failed or is stuck) counts toward giving up. */
  function end(error: unknown, unasked: boolean) {
    const ending = worker;
    worker = null;
    idle = clear(idle);
    deadline = clear(deadline);
    if (unasked) failures++;
    failAll(error);
    return ending?.terminate();
  }

  function watch() {
    deadline = clear(deadline);
    if (!waiting.size) return;
    deadline = setTimeout(() => void end(new Error('the preparing thread did not answer'), true), answerMs);
    deadline.unref();
  }

  function start(): Worker {
    const started = bundled()
      ? new Worker(new URL('./prepare-worker.ts', import.meta.url), { workerData: job })
      : // Sources (tests, scripts): the thread resolves `server-only` as the server does.
        sourceThread(import.meta.url.replace(/prepare-thread\.ts$/, 'prepare-worker.ts'), {
          workerData: job,
          execArgv: ['--conditions=react-server'],
        });
    started.on('message', (answer: PrepareAnswer) => {
      const asked = waiting.get(answer.id);
      if (!asked || worker !== started) return;
      waiting.delete(answer.id);
      if ('error' in answer) asked.reject(new Error(answer.error));
      else {
        prepared += answer.prepared.length;
        asked.resolve(answer.prepared);
      }
      watch();
      if (!waiting.size) restAfterIdle();
    });
    // Only the thread now up: one ended when idle (or closed) leaves what is waiting be.
    const failed = (error: unknown) => {
      if (worker === started) void end(error, true);
    };
    started.on('error', failed);
    started.on('messageerror', failed);
    started.on('exit', () => failed(new Error('the preparing thread ended')));
    return started;
  }

  /** Idle, the thread no longer keeps the process alive, and ends after `idleMs`. */
  function restAfterIdle() {
    worker?.unref();
    idle = clear(idle);
    idle = setTimeout(() => {
      idle = null;
      if (!waiting.size) void end(new Error('the preparing thread ended when idle'), false);
    }, idleMs);
    idle.unref();
  }

  return {
    prepare(records) {
      if (closed) return Promise.reject(new Error('the preparing thread is closed'));
      if (failures >= GIVE_UP_AFTER) return Promise.reject(new Error('the preparing thread failed'));
      idle = clear(idle);
      worker ??= start();
      // A page waited for keeps the process alive until it is answered.
      worker.ref();
      const id = nextId++;
      const answer = new Promise<Prepared[]>((resolve, reject) => waiting.set(id, { resolve, reject }));
      try {
        worker.postMessage({ id, records } satisfies PrepareRequest);
      } catch (error) {
        // What cannot be handed to a thread (a record holding a function) is the caller's to prepare.
        waiting.delete(id);
        if (!waiting.size) restAfterIdle();
        return Promise.reject(error);
      }
      if (!deadline) watch();
      return answer;
    },
    running: () => worker !== null,
    prepared: () => prepared,
    async close() {
      closed = true;
      await end(new Error('the preparing thread is closed'), false);
    },
  };
}
