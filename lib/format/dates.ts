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

const DATE_TIME_FORMATS = new Map<string, Intl.DateTimeFormat>();

/** A time zone the runtime knows, else UTC: a cookie or a browser may name anything. */
export function safeTimeZone(zone: string | undefined | null): string {
  if (!zone || zone.length > 64) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    // As given, not ICU's canonical name: Node and browsers canonicalise differently (Kolkata / Calcutta).
    return zone;
  } catch {
    return 'UTC';
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * An exact time as people read it: "30 Jun 2025, 14:05" (with `seconds`, "30 Jun 2025, 14:05:12"),
 * day-month-year so nobody misreads 06/07, in the given time zone (the viewer's, or UTC). Months
 * are our own three letters: ICU's short names differ between runtimes ("Sep" / "Sept").
 * Given `thisYear` (the current year in that zone), a date in it leaves the year out: "30 Jun, 14:05".
 */
export function formatDateTime(iso: string, timeZone = 'UTC', seconds = false, thisYear?: string): string {
  // A table renders a hundred of these, twice when the browser's zone arrives: formatting is the cost.
  const key = `${iso}|${timeZone}|${seconds}|${thisYear}`;
  const known = FORMATTED.get(key);
  if (known !== undefined) return known;
  const text = formatParts(iso, timeZone, seconds, thisYear);
  if (FORMATTED.size >= 2_000) FORMATTED.clear();
  FORMATTED.set(key, text);
  return text;
}

const FORMATTED = new Map<string, string>();

function formatParts(iso: string, timeZone: string, seconds: boolean, thisYear: string | undefined): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  let format = DATE_TIME_FORMATS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZone: safeTimeZone(timeZone),
    });
    DATE_TIME_FORMATS.set(timeZone, format);
  }
  const part: Record<string, string> = {};
  for (const p of format.formatToParts(at)) part[p.type] = p.value;
  const time = `${part.hour}:${part.minute}${seconds ? `:${part.second}` : ''}`;
  const year = part.year === thisYear ? '' : ` ${part.year}`;
  return `${Number(part.day)} ${MONTHS[Number(part.month) - 1]}${year}, ${time}`;
}

/** A short name of a time zone at a moment: "UTC", "GMT+1", "BST" where the runtime has one. */
export function zoneName(timeZone: string, at: number = Date.now()): string {
  if (timeZone === 'UTC') return 'UTC';
  const part = new Intl.DateTimeFormat('en-GB', { timeZone: safeTimeZone(timeZone), timeZoneName: 'short' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}

const YEARS = new Map<string, { year: string; until: number }>();

/**
 * The current year in a time zone ("2026"), for dates that leave it out. Asked once per row of a
 * table: remembered per zone for a minute rather than formatted a hundred times a render.
 */
export function yearIn(timeZone: string, at: number = Date.now()): string {
  const known = YEARS.get(timeZone);
  if (known && at < known.until && at >= known.until - 60_000) return known.year;
  const year = formatDateTime(new Date(at).toISOString(), timeZone).split(',')[0]!.split(' ')[2]!;
  YEARS.set(timeZone, { year, until: at + 60_000 });
  return year;
}
