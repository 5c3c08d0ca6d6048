import { describe, expect, it } from 'vitest';
import { createExamples } from './sandbox-examples';

describe("the sandbox's examples", () => {
  it('are read once and kept', async () => {
    let reads = 0;
    const examples = createExamples(async () => {
      reads++;
      return ['col_1'];
    });
    expect(await examples()).toEqual(['col_1']);
    expect(await examples()).toEqual(['col_1']);
    expect(reads).toBe(1);
  });

  it('after a failed read, are left out of the pages for a minute instead of read again on each', async () => {
    let now = 0;
    let reads = 0;
    let failing = true;
    const examples = createExamples(
      async () => {
        reads++;
        if (failing) throw new Error('The operation was aborted due to timeout');
        return ['col_1'];
      },
      { now: () => now, retryMs: 60_000 },
    );
    expect(await examples()).toEqual([]);
    now = 59_999;
    failing = false;
    expect(await examples()).toEqual([]);
    expect(reads).toBe(1);
    now = 60_000;
    expect(await examples()).toEqual(['col_1']);
    expect(reads).toBe(2);
  });

  it('share one read between the pages that ask while it runs', async () => {
    let reads = 0;
    let finish: (ids: string[]) => void = () => {};
    const examples = createExamples(() => {
      reads++;
      return new Promise((resolve) => (finish = resolve));
    });
    const both = Promise.all([examples(), examples()]);
    finish(['col_1']);
    expect(await both).toEqual([['col_1'], ['col_1']]);
    expect(reads).toBe(1);
  });
});
