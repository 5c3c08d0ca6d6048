import { createReadStream, readFileSync } from 'node:fs';

/**
 * What the load test and the benchmarks need of the servers they start:
 * waiting for one to answer, finding the Node process that serves (`next
 * start` forks the server into a child), and its resident memory.
 */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `url` answers below 500; throws after `timeoutMs`. */
export async function waitFor(url: string, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (
      await fetch(url).then(
        (r) => r.status < 500,
        () => false,
      )
    )
      return;
    await sleep(200);
  }
  throw new Error(`${url} did not come up`);
}

/** The deepest first child of `parent`: the process that really serves. */
export function serverPid(parent: number): number {
  const children = readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  return children.length ? serverPid(children[0]!) : parent;
}

export const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** CPU time (user + system) a process has used so far, in milliseconds (Linux: /proc, clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Reads a file to its end (into the OS's cache), in seconds. This machine's kernel pages out what nobody touched
 * for a while (DAMON's `pageout`), page cache included: the 1,000,000-collection sandbox's 3.6 GB file, cold, is
 * read back at ~5.6 MB/s of random reads, and a sandbox started on it took minutes to answer.
 */
export async function readWhole(path: string): Promise<number> {
  const t = performance.now();
  for await (const chunk of createReadStream(path, { highWaterMark: 8 << 20 })) void chunk;
  return Math.round((performance.now() - t) / 100) / 10;
}
