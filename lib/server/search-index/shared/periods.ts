import 'server-only';
import type { AppDatabase } from '../../database/schema';

type Grain = AppDatabase['rollups']['grain'];

/** Completion times in buckets 2 % wide (a median read from them is within 1 % of the true one). */
const STEP = Math.log(1.02);

export function durationBucket(ms: number): number {
  const seconds = ms / 1000;
  return seconds < 1 ? 0 : 1 + Math.floor(Math.log(seconds) / STEP);
}

/** A bucket's middle, in milliseconds (geometric: the buckets grow by a factor). */
export function bucketMiddleMs(bucket: number): number {
  return bucket === 0 ? 500 : Math.exp((bucket - 0.5) * STEP) * 1000;
}

/** The median of a histogram `[bucket, count][]`, from the middle of the bucket holding the middle record. */
export function histogramMedianMs(histogram: Array<[number, number]>): number | null {
  const sorted = [...histogram].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((sum, [, n]) => sum + n, 0);
  if (!total) return null;
  const middle = Math.ceil(total / 2);
  let seen = 0;
  for (const [bucket, n] of sorted) {
    seen += n;
    if (seen >= middle) return Math.round(bucketMiddleMs(bucket));
  }
  return null;
}

export type PeriodRun = { grain: Grain; lo: string; hi: string };

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** The last day of a month (`YYYY-MM`), as `YYYY-MM-DD`. */
const lastDay = (month: string) =>
  `${month}-${pad(new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate(), 2)}`;
const monthAfter = (month: string, step: 1 | -1) => {
  const n = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + step;
  return `${pad(Math.floor(n / 12), 4)}-${pad((n % 12) + 1, 2)}`;
};

/**
 * The roll-up periods that together cover the UTC days `from`..`to` (`YYYY-MM-DD`, both included, either
 * open), each day once, in the largest grains that fit: the first and last month's odd days by day, the
 * whole months between by month, the whole years by year. Any range is then a few dozen roll-up keys per
 * currency and status, where its rows are thousands to a million (`rolledUpCount` in queries.ts).
 */
export function periodsCovering(from?: string, to?: string): PeriodRun[] {
  if (!from && !to) return [{ grain: 'a', lo: '', hi: '' }];
  const lo = from ?? '0000-01-01';
  const hi = to ?? '9999-12-31';
  if (lo > hi) return [];
  const runs: PeriodRun[] = [];
  const [firstMonth, lastMonth] = [lo.slice(0, 7), hi.slice(0, 7)];
  // The odd days at each end (a range within one month that is not the whole month: days alone).
  const headWhole = lo.endsWith('-01');
  const tailWhole = hi === lastDay(lastMonth);
  if (firstMonth === lastMonth && !(headWhole && tailWhole)) return [{ grain: 'd', lo, hi }];
  let fromMonth = firstMonth;
  let toMonth = lastMonth;
  if (!headWhole) {
    runs.push({ grain: 'd', lo, hi: lastDay(firstMonth) });
    fromMonth = monthAfter(firstMonth, 1);
  }
  if (!tailWhole) {
    runs.push({ grain: 'd', lo: `${lastMonth}-01`, hi });
    toMonth = monthAfter(lastMonth, -1);
  }
  // Compared as numbers: December 9999's next month is no string after it.
  const monthIndex = (month: string) => Number(month.slice(0, -3)) * 12 + Number(month.slice(-2));
  if (monthIndex(fromMonth) > monthIndex(toMonth)) return runs;
  // The whole months, then the whole years among them.
  const [firstYear, lastYear] = [fromMonth.slice(0, -3), toMonth.slice(0, -3)];
  const yearHeadWhole = fromMonth.endsWith('-01');
  const yearTailWhole = toMonth.endsWith('-12');
  if (firstYear === lastYear && !(yearHeadWhole && yearTailWhole))
    return [...runs, { grain: 'm', lo: fromMonth, hi: toMonth }];
  let fromYear = Number(firstYear);
  let toYear = Number(lastYear);
  if (!yearHeadWhole) {
    runs.push({ grain: 'm', lo: fromMonth, hi: `${firstYear}-12` });
    fromYear++;
  }
  if (!yearTailWhole) {
    runs.push({ grain: 'm', lo: `${lastYear}-01`, hi: toMonth });
    toYear--;
  }
  if (fromYear <= toYear) runs.push({ grain: 'y', lo: pad(fromYear, 4), hi: pad(toYear, 4) });
  return runs;
}
