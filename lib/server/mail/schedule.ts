import 'server-only';
import { DateTime } from 'luxon';
import type { Schedule } from '@/lib/api/subscriptions';

/**
 * When a report is next due after `afterMs`: the schedule's wall-clock time in its zone (Luxon keeps the
 * zone's rules: a 09:00 report stays at 09:00 across summer time). A day past a month's end is that month's
 * last day; a time a spring-forward skips is the first moment after the gap (Luxon moves it forward); a time
 * an autumn repeat holds twice is sent once. Always strictly after `afterMs`, so a due time is never reused.
 */
export function nextDue(schedule: Schedule, afterMs: number): number {
  const [hour, minute] = schedule.at.split(':').map(Number) as [number, number];
  const after = DateTime.fromMillis(afterMs, { zone: schedule.zone });
  // Walk candidate days from the day before (a zone behind UTC), the first one strictly after wins.
  for (let offset = -1; offset <= 62; offset++) {
    const day = after.startOf('day').plus({ days: offset });
    if (!matches(schedule, day)) continue;
    const at = DateTime.fromObject(
      { year: day.year, month: day.month, day: day.day, hour, minute },
      { zone: schedule.zone },
    );
    if (at.toMillis() > afterMs) return at.toMillis();
  }
  throw new Error('no due time within two months');
}

function matches(schedule: Schedule, day: DateTime): boolean {
  if (schedule.every === 'week') return day.weekday === (schedule.weekday ?? 1);
  if (schedule.every === 'month') return day.day === Math.min(schedule.day ?? 1, day.daysInMonth ?? 28);
  return true;
}
