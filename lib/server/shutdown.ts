import 'server-only';

/**
 * Holds the process's exit until `until` settles, `maxMs` at most: Next.js's own signal handler closes its
 * server and calls `process.exit` within milliseconds, and a hand-over that must first let a write finish
 * (the sync's step under way) would otherwise be cut off, leaving the lease to lapse. An exit asked for
 * meanwhile happens as soon as the work is done, with its code.
 */
export function holdExit(
  until: Promise<unknown>,
  maxMs: number,
  proc: { exit: (code?: number) => never } = process as { exit: (code?: number) => never },
): void {
  const exit = proc.exit.bind(proc);
  let timer: NodeJS.Timeout | undefined;
  const done = Promise.race([
    until.catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxMs);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
  proc.exit = ((code?: number) => {
    void done.then(() => exit(code));
  }) as (code?: number) => never;
}
