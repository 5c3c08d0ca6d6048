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
