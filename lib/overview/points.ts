import type { PerDay } from '@/lib/api/overview';

/**
 * The overview's rows shaped for a chart: one point per bucket of the range
 * (days with nothing still drawn at zero), one value per status, for one
 * currency. All time comes by month; a span of more than ten years is drawn by
 * year, so a chart never has more than about 120 points.
 */
export type Bucket = 'day' | 'month' | 'year';
export type Point = { date: string; values: Record<string, number> };

const DAY_MS = 86_400_000;
const MAX_MONTHS = 120;

function steps(from: string, to: string, bucket: Bucket): string[] {
  const out: string[] = [];
  if (bucket === 'day') {
    for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS)
      out.push(new Date(t).toISOString().slice(0, 10));
    return out;
  }
  let year = Number(from.slice(0, 4));
  let month = bucket === 'month' ? Number(from.slice(5, 7)) : 1;
  const end = bucket === 'month' ? to.slice(0, 7) : to.slice(0, 4);
  for (;;) {
    const key = bucket === 'month' ? `${year}-${String(month).padStart(2, '0')}` : String(year);
    if (key > end) return out;
    out.push(bucket === 'month' ? `${key}-01` : `${key}-01-01`);
    if (bucket === 'year' || month === 12) {
      year += 1;
      month = 1;
    } else month += 1;
  }
}

export function chartBucket(range: { from: string | null; to: string }, bucket: Bucket): Bucket {
  if (bucket !== 'month' || !range.from) return bucket;
  const months =
    (Number(range.to.slice(0, 4)) - Number(range.from.slice(0, 4))) * 12 +
    Number(range.to.slice(5, 7)) -
    Number(range.from.slice(5, 7));
  return months > MAX_MONTHS ? 'year' : 'month';
}

/** Points of `field` per status for one currency, every bucket of the range present. */
export function chartPoints(
  rows: PerDay[],
  options: {
    currency: string;
    field: 'created' | 'completedAmount';
    range: { from: string | null; to: string };
    bucket: Bucket;
  },
): { points: Point[]; series: string[] } {
  const { currency, field, range, bucket } = options;
  const mine = rows.filter((r) => r.currency === currency && r[field] !== 0);
  const series = [...new Set(mine.map((r) => r.status))].sort(
    (a, b) =>
      mine.filter((r) => r.status === b).reduce((n, r) => n + r[field], 0) -
        mine.filter((r) => r.status === a).reduce((n, r) => n + r[field], 0) || a.localeCompare(b),
  );
  const keyOf = (date: string) => (bucket === 'year' ? `${date.slice(0, 4)}-01-01` : date);
  const from = range.from ?? mine[0]?.date ?? range.to;
  const points = new Map(
    steps(from, range.to, bucket).map((date) => [date, { date, values: {} as Record<string, number> }]),
  );
  for (const row of mine) {
    const point = points.get(keyOf(row.date));
    if (point) point.values[row.status] = (point.values[row.status] ?? 0) + row[field];
  }
  return { points: [...points.values()], series };
}

/** The bucket with the highest total across series, for a chart's summary. */
export function peak(points: Point[]): { date: string; total: number } | null {
  let best: { date: string; total: number } | null = null;
  for (const p of points) {
    const total = Object.values(p.values).reduce((n, v) => n + v, 0);
    if (total > 0 && (!best || total > best.total)) best = { date: p.date, total };
  }
  return best;
}
