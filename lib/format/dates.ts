/**
 * Timestamps: relative for reading ("3 h ago"), exact UTC for checking
 * ("2026-11-20 16:45:12 UTC", shown on hover and in the raw view).
 */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'long' });

export function formatRelative(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const diff = at - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === 'second') return relative.format(Math.trunc(diff / ms), unit);
  }
  return iso;
}

export function formatUtc(iso: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  return `${new Date(at)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '')} UTC`;
}

/** A span of time for reading: "45 s", "12 min", "2 h 14 min", "3 d 4 h" (two units at most). */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

const DAY_FORMAT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const MONTH_FORMAT = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const FULL_DAY_FORMAT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A UTC calendar day (`YYYY-MM-DD`) or a bucket of days: "3 Nov", "Nov 2026", "2026", "3 Nov 2026". */
export function formatDay(day: string, bucket: 'day' | 'month' | 'year' | 'full' = 'day'): string {
  const at = Date.parse(`${day}T00:00:00.000Z`);
  if (Number.isNaN(at)) return day;
  if (bucket === 'year') return day.slice(0, 4);
  if (bucket === 'month') return MONTH_FORMAT.format(at);
  return (bucket === 'full' ? FULL_DAY_FORMAT : DAY_FORMAT).format(at);
}
