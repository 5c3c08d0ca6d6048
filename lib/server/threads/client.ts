import 'server-only';
import type { TransferListItem, Worker } from 'node:worker_threads';
import { errorOf, isStart, type ThreadMessage } from './protocol';
import { startThread, type ThreadSpec } from './start';

/** Why a thread went down: it could not open its work, did not start in time, failed, or stopped. */
export type ThreadDown = {
  reason: 'open' | 'start' | 'failed' | 'stopped';
  error: Error;
  /** Whether it had said it was ready before. */
  ready: boolean;
};

/** How long a thread may take to say it opened, unless its kind says otherwise. */
export const START_MS = 15_000;

/**
 * The server's side of the protocol (protocol.ts), for one thread: started as `spec` says, given up on when
 * it neither opens nor fails within `startMs`, each request answered by its id. When the thread goes down
 * (it could not open, did not start, failed, stopped) every request it held is rejected with `errorFor`'s
 * error (the down's own by default) and `onDown` says so once. Work waiting keeps the process alive (a
 * script's last request too); an idle thread never does.
 */
export function startClient<J, A>(
  spec: ThreadSpec & {
    startMs?: number;
    onReady?: () => void;
    onDown?: (down: ThreadDown) => void;
    errorFor?: (down: ThreadDown) => Error;
  },
) {
  const worker: Worker = startThread(spec);
  const pending = new Map<number, { job: J; resolve: (answer: A) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let ready = false;
  let down: ThreadDown | null = null;
  const keepAlive = () => (pending.size ? worker.ref() : worker.unref());

  const startMs = spec.startMs ?? START_MS;
  const timer = setTimeout(
    () => goDown('start', new Error(`${capital(spec.name)} did not start within ${startMs} ms`)),
    startMs,
  );
  timer.unref();

  function goDown(reason: ThreadDown['reason'], error: Error) {
    if (down) return;
    clearTimeout(timer);
    down = { reason, error, ready };
    const failure = spec.errorFor?.(down) ?? error;
    const held = [...pending.values()];
    pending.clear();
    for (const p of held) p.reject(failure);
    keepAlive();
    if (reason !== 'stopped') void worker.terminate();
    spec.onDown?.(down);
  }

  worker.on('message', (message: ThreadMessage<A>) => {
    if (isStart(message)) {
      if (message.thread === 'failed') return goDown('open', errorOf(message.failure, { atOpen: true }));
      clearTimeout(timer);
      ready = true;
      spec.onReady?.();
      return;
    }
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    keepAlive();
    if ('ok' in message) waiting.resolve(message.ok);
    else waiting.reject(errorOf(message.error));
  });
  worker.on('error', (error) => goDown('failed', new Error(`${capital(spec.name)} failed: ${error.message}`)));
  worker.on('messageerror', (error) => goDown('failed', new Error(`${capital(spec.name)} failed: ${error.message}`)));
  worker.on('exit', () => goDown('stopped', new Error(`${capital(spec.name)} stopped`)));
  keepAlive();

  return {
    worker,
    get ready() {
      return ready;
    },
    get down() {
      return down;
    },
    /** Requests sent and not answered. */
    get waiting() {
      return pending.size;
    },
    /** The jobs sent and not answered, oldest first (what a caller may do itself when the thread is gone). */
    held: (): J[] => [...pending.values()].map((p) => p.job),
    /**
     * Sends a job; its answer, or its failure. A job that cannot be copied to the thread throws here, and
     * nothing waits for it.
     */
    request(job: J, transfer: TransferListItem[] = []): Promise<A> {
      if (down) return Promise.reject(spec.errorFor?.(down) ?? down.error);
      const id = nextId++;
      worker.postMessage({ id, job }, transfer);
      return new Promise<A>((resolve, reject) => {
        pending.set(id, { job, resolve, reject });
        keepAlive();
      });
    },
    /** Ends the thread on purpose: what it held fails with `error`. */
    async end(error: Error): Promise<void> {
      goDown('stopped', error);
      await worker.terminate();
    },
  };
}
export type ThreadClient<J, A> = ReturnType<typeof startClient<J, A>>;

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
