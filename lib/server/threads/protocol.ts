/**
 * The one protocol between the server and its threads, both sides (no `server-only`: the threads load it from
 * sources without the react-server condition). A thread first says whether it opened what it works on
 * (`ThreadStart`); then each request carries an id and is answered once with the same id, its result or its
 * failure in words (an error crossing threads loses everything but its message and code).
 */
export type ThreadFailure = { message: string; code?: string };
export type ThreadStart = { thread: 'ready' } | { thread: 'failed'; failure: ThreadFailure };
export type ThreadRequest<J> = { id: number; job: J };
export type ThreadAnswer<A> = { id: number; ok: A } | { id: number; error: ThreadFailure };
export type ThreadMessage<A> = ThreadStart | ThreadAnswer<A>;

/** An error as it can cross to another thread: its message and code. */
export function failureOf(error: unknown): ThreadFailure {
  const e = error as { message?: unknown; code?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return typeof e?.code === 'string' ? { message, code: e.code } : { message };
}

/** The failure made an Error again, its code kept (what `storeFault` and the callers read). */
export const errorOf = (failure: ThreadFailure, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(failure.message), failure.code ? { code: failure.code } : {}, extra);

export const isStart = (message: unknown): message is ThreadStart =>
  typeof message === 'object' && message !== null && 'thread' in message;
