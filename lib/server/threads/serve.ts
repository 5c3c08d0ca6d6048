import { parentPort, workerData, type TransferListItem } from 'node:worker_threads';
import { lowerThreadPriority } from './priority';
import { failureOf, type ThreadAnswer, type ThreadRequest, type ThreadStart } from './protocol';

/**
 * A thread's side of the protocol (protocol.ts): nice 10 when started as background work, `open` run first
 * (its failure said to the server in words, with what the thread was opening, and nothing served after), then
 * every request answered in order with `handle`'s result or its failure. `transfer` names the buffers of a
 * result to hand over instead of copying them.
 */
/** Nice 10 when the server started this thread as background work (`ThreadSpec.background`). */
export function backgroundThread(): void {
  if ((workerData as { background?: boolean } | null)?.background) lowerThreadPriority();
}

export function serveRequests<J, A, T = void>(options: {
  /** What the thread opens before it serves (a database file), and what it says when that fails. */
  open?: () => T;
  opening?: string;
  handle: (job: J, opened: T) => A | Promise<A>;
  transfer?: (answer: A) => TransferListItem[];
}): void {
  backgroundThread();
  const port = parentPort!;
  let opened: T;
  try {
    opened = options.open ? options.open() : (undefined as T);
  } catch (error) {
    const failure = failureOf(error);
    if (options.opening) failure.message = `${options.opening}: ${failure.message}`;
    port.postMessage({ thread: 'failed', failure } satisfies ThreadStart);
    return;
  }
  let turn: Promise<void> = Promise.resolve();
  port.on('message', ({ id, job }: ThreadRequest<J>) => {
    // In order, one at a time, even when `handle` waits for something.
    turn = turn.then(async () => {
      let answer: ThreadAnswer<A>;
      try {
        answer = { id, ok: await options.handle(job, opened) };
      } catch (error) {
        answer = { id, error: failureOf(error) };
      }
      port.postMessage(answer, 'ok' in answer && options.transfer ? options.transfer(answer.ok) : []);
    });
  });
  port.postMessage({ thread: 'ready' } satisfies ThreadStart);
}

/**
 * A thread's side when it serves no requests (it reports on its own, or streams over ports): nice 10 when
 * background work, `open` run first and its failure said in words; `true` when the thread may go on.
 */
export function announceStart(open: () => void = () => {}, opening?: string): boolean {
  backgroundThread();
  try {
    open();
  } catch (error) {
    const failure = failureOf(error);
    if (opening) failure.message = `${opening}: ${failure.message}`;
    parentPort!.postMessage({ thread: 'failed', failure } satisfies ThreadStart);
    return false;
  }
  parentPort!.postMessage({ thread: 'ready' } satisfies ThreadStart);
  return true;
}
