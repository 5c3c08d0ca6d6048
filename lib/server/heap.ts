import 'server-only';
import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the server's heap grow past what its last full collection left alive: 1.5×. V8 chooses the
 * factor itself, up to 4× when its collections are quick, as a server's are; a first sync promotes each batch
 * of prepared records to the old generation and lets it die there, so the old generation swung between ~60 MB
 * alive and ~230 MB before each full collection, and the process kept the pages of that peak: RSS +311 to
 * +349 MB over a first sync of 1,000,000 collections. At 1.5×: +188 and +195 MB in two syncs, their times
 * (203.4, 212.9 s) and the server's CPU (231.9, 247.9 s) within the spread of three runs without it (206.2-218.9
 * s, 231.8-245.8 s): more full collections, each of a smaller heap (bench/README.md, "A heap that grows by half").
 */
export const HEAP_GROWING_PERCENT = 50;

/** Sets the factor for every isolate of the process (the worker threads' too): V8 reads it at each collection. */
export function boundHeapGrowth() {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
