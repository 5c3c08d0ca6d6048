/**
 * Downloads a CSV export as another person's browser would, in a process of its own, and prints
 * `{ rows, total, seconds }` as JSON: the rows read (lines after the header) and the `X-Total-Count`
 * the server announced. The benchmarks time searches beside it: read in their own process, the
 * download's bytes would share the event loop that times the searches, and the figure would hold the
 * client's work as well as the server's.
 *
 *   node scripts/download.mjs URL
 */
const url = process.argv[2];
if (!url) {
  console.error('usage: node scripts/download.mjs URL');
  process.exit(2);
}
const started = performance.now();
const res = await fetch(url);
if (!res.ok) {
  console.error(`download: ${url}: ${res.status}`);
  process.exit(1);
}
let lines = 0;
for await (const chunk of res.body) {
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
}
const total = res.headers.get('x-total-count');
console.log(
  JSON.stringify({
    rows: lines - 1,
    total: total === null ? null : Number(total),
    seconds: (performance.now() - started) / 1000,
  }),
);
