import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { createDatabase, DEFAULT_SEED } from './db';

/**
 * `npm run sandbox:seed -- --collections 1000000 --out .data/large.sqlite`
 * builds a sandbox database with N collections in the demo account (for
 * benchmarks); serve it with SANDBOX_DB=<out> npm run sandbox.
 */
const { values } = parseArgs({
  options: {
    collections: { type: 'string', default: '257' },
    out: { type: 'string', default: '.data/sandbox.sqlite' },
    seed: { type: 'string', default: String(DEFAULT_SEED) },
  },
});
const collections = Number(values.collections);
if (!Number.isInteger(collections) || collections < 1 || collections > 1_000_000) {
  console.error('--collections must be a whole number from 1 to 1000000');
  process.exit(2);
}
const out = resolve(values.out);
const started = performance.now();
createDatabase(out, {
  collections,
  seed: Number(values.seed),
  onProgress: (done) => process.stdout.write(`\r${done.toLocaleString('en')} collections…`),
});
console.log(
  `\nSeeded ${collections.toLocaleString('en')} demo collections into ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
