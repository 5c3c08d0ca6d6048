import 'server-only';
import { Worker } from 'node:worker_threads';
import type { Collection } from '@/lib/api/schemas';
import { bundled, sourceThread } from '../database/threads';
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
};

/** How long the thread stays without a page before it ends. */
export const IDLE_MS = 10_000;

export function prepareThread(job: PrepareJob, options: { idleMs?: number } = {}): PrepareThread {
  const idleMs = options.idleMs ?? IDLE_MS;
  let worker: Worker | null = null;
  let nextId = 0;
  const waiting = new Map<number, { resolve(made: Prepared[]): void; reject(error: unknown): void }>();
  let idle: NodeJS.Timeout | null = null;
  let closed = false;

  const failAll = (error: unknown) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };

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
      if (!asked) return;
      waiting.delete(answer.id);
      if ('error' in answer) asked.reject(new Error(answer.error));
      else asked.resolve(answer.prepared);
      if (!waiting.size) restAfterIdle();
    });
    // What is waiting was asked of the thread now up: one ended when idle (or closed) leaves it be.
    const ended = (error: unknown) => {
      if (worker !== started) return;
      worker = null;
      failAll(error);
    };
    started.on('error', ended);
    started.on('exit', () => ended(new Error('the preparing thread ended')));
    // What it prepares is awaited by a sync step; it alone never keeps the process alive.
    started.unref();
    return started;
  }

  function restAfterIdle() {
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => {
      idle = null;
      if (waiting.size) return;
      const ending = worker;
      worker = null;
      void ending?.terminate();
    }, idleMs);
    idle.unref();
  }

  return {
    prepare(records) {
      if (closed) return Promise.reject(new Error('the preparing thread is closed'));
      if (idle) {
        clearTimeout(idle);
        idle = null;
      }
      worker ??= start();
      const id = nextId++;
      const answer = new Promise<Prepared[]>((resolve, reject) => waiting.set(id, { resolve, reject }));
      try {
        worker.postMessage({ id, records } satisfies PrepareRequest);
      } catch (error) {
        // What cannot be handed to a thread (a record holding a function) is the caller's to prepare.
        waiting.delete(id);
        return Promise.reject(error);
      }
      return answer;
    },
    running: () => worker !== null,
    async close() {
      closed = true;
      if (idle) clearTimeout(idle);
      const ending = worker;
      worker = null;
      failAll(new Error('the preparing thread is closed'));
      await ending?.terminate();
    },
  };
}
