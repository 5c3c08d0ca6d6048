import 'server-only';
import { Worker, type ResourceLimits, type WorkerOptions } from 'node:worker_threads';

/**
 * Whether this code runs bundled (a built server: the bundler finds `new Worker(new URL('./x.ts',
 * import.meta.url))` as written, makes the thread a chunk of its own, and sets NEXT_RUNTIME), or as
 * TypeScript sources (tests, scripts under tsx). Not `import.meta.url`: the bundle keeps each file's source
 * address in it, so a built server would take the sources' road, which holds only where the sources and
 * tsx sit beside it (never in the image).
 */
export const bundled = () => Boolean(process.env.NEXT_RUNTIME);

/**
 * A thread of a TypeScript source file (`entry`, a file: URL), through tsx's loader registered inside it:
 * Node 20 does not apply `--import` hooks to a worker's entry.
 */
export const sourceThread = (entry: string, options: WorkerOptions) =>
  new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`, {
    ...options,
    eval: true,
  });

/** The address of `file` beside the module at `url` (its `import.meta.url`): a thread's source entry. */
export const sibling = (url: string, file: string) => url.replace(/[^/]+$/, file);

/** How a thread of the server starts: one shape for every kind. */
export type ThreadSpec = {
  /** What a person reads in an error: "the index reads thread". */
  name: string;
  /**
   * The bundled thread, written at the call site as `(options) => new Worker(new URL('./x-worker.ts',
   * import.meta.url), { ...options })`: the bundler makes a worker chunk of exactly that expression, its
   * options an object literal (given a bare `options`, Turbopack copied the TypeScript file as an asset).
   */
  bundled: (options: WorkerOptions) => Worker;
  /** The same thread's TypeScript source (`sibling(import.meta.url, 'x-worker.ts')`), for tests and scripts. */
  source: string;
  workerData?: unknown;
  /** What `workerData` hands over rather than copies (a MessagePort of a pipeline between threads). */
  transferList?: WorkerOptions['transferList'];
  /** The thread's heap bound: a job that outgrows it ends the thread (its job fails), never the process. */
  resourceLimits?: ResourceLimits;
  /** Sources only: a thread importing `server-only` code resolves it as the server does. */
  serverOnly?: boolean;
  /**
   * Behind the request thread for the CPU (nice 10, `lowerThreadPriority` in the thread, told by
   * `workerData.background`): background work never slows the pages people wait on.
   */
  background?: boolean;
};

/** Starts a thread as `spec` says: the bundled chunk in a built server, the source under tsx elsewhere. */
export function startThread(spec: ThreadSpec): Worker {
  const options: WorkerOptions = {
    workerData: spec.background ? { ...(spec.workerData as object), background: true } : spec.workerData,
    ...(spec.resourceLimits ? { resourceLimits: spec.resourceLimits } : {}),
    ...(spec.transferList ? { transferList: spec.transferList } : {}),
  };
  if (bundled()) return spec.bundled(options);
  return sourceThread(spec.source, {
    ...options,
    ...(spec.serverOnly ? { execArgv: ['--conditions=react-server'] } : {}),
  });
}
