import { readdirSync, readFileSync } from 'node:fs';

/** Each thread of this process by its id, with its nice value (`/proc/self/task/<tid>/stat`, field 19). */
export function threadNices(): Map<string, number> {
  const nices = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // After the name in parentheses (which may hold spaces): state is field 3, nice field 19.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      nices.set(tid, Number(fields[16]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return nices;
}

/** The threads that appeared since `before`, with their nice values. */
export const startedThreadNices = (before: Map<string, number>) =>
  [...threadNices()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);

/**
 * Whether a thread started now shows that it was lowered to nice 10: only where the threads can be read
 * (Linux) and this process runs below 10 (a thread of a process already at 10 or more inherits that).
 */
export const loweringShows = () => process.platform === 'linux' && (threadNices().get(String(process.pid)) ?? 10) < 10;
