import { describe, expect, it } from 'vitest';
import { holdExit } from './shutdown';

const process = () => {
  const exits: (number | undefined)[] = [];
  return { exits, proc: { exit: ((code?: number) => void exits.push(code)) as (code?: number) => never } };
};

describe('holding the exit for a hand-over', () => {
  it('exits with the code asked for, once the hand-over is done', async () => {
    const { exits, proc } = process();
    let finish!: () => void;
    holdExit(new Promise<void>((resolve) => (finish = resolve)), 60_000, proc);
    proc.exit(143);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(exits).toEqual([]);
    finish();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(exits).toEqual([143]);
  });

  it('exits after at most its bound when the hand-over hangs, and when it fails', async () => {
    const hung = process();
    holdExit(new Promise(() => {}), 30, hung.proc);
    hung.proc.exit(143);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(hung.exits).toEqual([143]);
    const failed = process();
    holdExit(Promise.reject(new Error('the database is gone')), 60_000, failed.proc);
    failed.proc.exit(130);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(failed.exits).toEqual([130]);
  });
});
