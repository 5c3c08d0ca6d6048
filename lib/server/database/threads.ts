import 'server-only';
import { Worker, type WorkerOptions } from 'node:worker_threads';

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
