import 'server-only';
import { Worker } from 'node:worker_threads';
import type { Collection } from '@/lib/api/schemas';
import { startClient, type ThreadClient } from '../../threads/client';
import { sibling } from '../../threads/start';
import type { Prepared } from './prepare';
import type { PrepareJob } from './prepare-worker';

/**
 * A first scan's records prepared on a thread of its own (prepare-worker.ts), beside the request thread
 * that reads the upstream's pages and sends the writes, and the writer's thread that runs them. Started at
 * the first page it is given and ended after `IDLE_MS` without one: a first scan (or a rebuild) keeps it,
 * the rescans after it (whose few changed records the request thread prepares) do not.
 * Preparing is a large share of the request thread's CPU in a first scan (decision record 0011).
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
  let client: ThreadClient<Collection[], Prepared[]> | null = null;
  let idle: NodeJS.Timeout | null = null;
  /** The oldest page's deadline (every answer moves it on: pages are answered in order). */
  let deadline: NodeJS.Timeout | null = null;
  let closed = false;
  let failures = 0;
  let prepared = 0;

  const clear = (timer: NodeJS.Timeout | null) => {
    if (timer) clearTimeout(timer);
    return null;
  };
  const waiting = () => client?.waiting ?? 0;

  /** Ends the thread now up, failing what it held: `unasked` (it failed or is stuck) counts toward giving up. */
  function end(error: Error, unasked: boolean) {
    const ending = client;
    client = null;
    idle = clear(idle);
    deadline = clear(deadline);
    if (unasked) failures++;
    return ending?.end(error);
  }

  function watch() {
    deadline = clear(deadline);
    if (!waiting()) return;
    deadline = setTimeout(() => void end(new Error('the preparing thread did not answer'), true), answerMs);
    deadline.unref();
  }

  function start() {
    const started = startClient<Collection[], Prepared[]>({
      name: 'the preparing thread',
      bundled: (options) => new Worker(new URL('./prepare-worker.ts', import.meta.url), { ...options }),
      source: sibling(import.meta.url, 'prepare-worker.ts'),
      workerData: job,
      serverOnly: true,
      background: true,
      // Only the thread now up: one ended when idle (or closed) leaves what is waiting be.
      onDown: ({ error }) => {
        if (client === started) void end(error, true);
      },
    });
    return started;
  }

  /** Idle, the thread ends after `idleMs` (an idle thread never keeps the process alive). */
  function restAfterIdle() {
    idle = clear(idle);
    idle = setTimeout(() => {
      idle = null;
      if (!waiting()) void end(new Error('the preparing thread ended when idle'), false);
    }, idleMs);
    idle.unref();
  }

  const answered = () => {
    watch();
    if (!waiting()) restAfterIdle();
  };

  return {
    prepare(records) {
      if (closed) return Promise.reject(new Error('the preparing thread is closed'));
      if (failures >= GIVE_UP_AFTER) return Promise.reject(new Error('the preparing thread failed'));
      idle = clear(idle);
      const thread = (client ??= start());
      let answer: Promise<Prepared[]>;
      try {
        answer = thread.request(records);
      } catch (error) {
        // What cannot be handed to a thread (a record holding a function) is the caller's to prepare.
        if (!waiting()) restAfterIdle();
        return Promise.reject(error);
      }
      if (!deadline) watch();
      return answer.then(
        (made) => {
          prepared += made.length;
          if (client === thread) answered();
          return made;
        },
        (error: Error) => {
          if (client === thread) answered();
          throw error;
        },
      );
    },
    running: () => client !== null,
    prepared: () => prepared,
    async close() {
      closed = true;
      await end(new Error('the preparing thread is closed'), false);
    },
  };
}
