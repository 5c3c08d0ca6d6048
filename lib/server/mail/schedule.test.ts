import { describe, expect, it } from 'vitest';
import { nextDue } from './schedule';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('nextDue', () => {
  it('reads the time in the schedule’s zone, strictly after the moment given', () => {
    const daily = { every: 'day' as const, at: '09:00', zone: 'America/New_York' };
    expect(iso(nextDue(daily, at('2026-12-07T13:00:00Z')))).toBe('2026-12-07T14:00:00.000Z');
    expect(iso(nextDue(daily, at('2026-12-07T14:00:00Z')))).toBe('2026-12-08T14:00:00.000Z');
    const tokyo = { every: 'day' as const, at: '00:30', zone: 'Asia/Tokyo' };
    expect(iso(nextDue(tokyo, at('2026-12-07T15:00:00Z')))).toBe('2026-12-07T15:30:00.000Z');
  });

  it('keeps the wall-clock time across summer time', () => {
    const london = { every: 'day' as const, at: '09:00', zone: 'Europe/London' };
    expect(iso(nextDue(london, at('2026-03-28T12:00:00Z')))).toBe('2026-03-29T08:00:00.000Z');
    expect(iso(nextDue(london, at('2026-10-24T12:00:00Z')))).toBe('2026-10-25T09:00:00.000Z');
  });

  it('sends a weekly report on its weekday (1 is Monday)', () => {
    const monday = { every: 'week' as const, at: '08:00', zone: 'UTC', weekday: 1 };
    // 2026-12-07 is a Monday.
    expect(iso(nextDue(monday, at('2026-12-07T07:59:00Z')))).toBe('2026-12-07T08:00:00.000Z');
    expect(iso(nextDue(monday, at('2026-12-07T08:00:00Z')))).toBe('2026-12-14T08:00:00.000Z');
    const sunday = { every: 'week' as const, at: '23:00', zone: 'UTC', weekday: 7 };
    expect(iso(nextDue(sunday, at('2026-12-07T00:00:00Z')))).toBe('2026-12-13T23:00:00.000Z');
  });

  it('sends a day past the month’s end on its last day', () => {
    const thirtyFirst = { every: 'month' as const, at: '06:00', zone: 'UTC', day: 31 };
    expect(iso(nextDue(thirtyFirst, at('2027-02-01T00:00:00Z')))).toBe('2027-02-28T06:00:00.000Z');
    expect(iso(nextDue(thirtyFirst, at('2027-02-28T06:00:00Z')))).toBe('2027-03-31T06:00:00.000Z');
    expect(iso(nextDue(thirtyFirst, at('2028-02-01T00:00:00Z')))).toBe('2028-02-29T06:00:00.000Z');
    const first = { every: 'month' as const, at: '00:00', zone: 'Europe/Berlin', day: 1 };
    expect(iso(nextDue(first, at('2026-12-15T00:00:00Z')))).toBe('2026-12-31T23:00:00.000Z');
  });

  it('sends a time the clocks skip after the gap, and a repeated one once', () => {
    // Europe/London skips 01:00-02:00 on 2026-03-29 and repeats 01:00-02:00 on 2026-10-25.
    const gap = { every: 'day' as const, at: '01:30', zone: 'Europe/London' };
    const sent = nextDue(gap, at('2026-03-28T12:00:00Z'));
    expect(iso(sent)).toBe('2026-03-29T01:30:00.000Z');
    expect(iso(nextDue(gap, sent))).toBe('2026-03-30T00:30:00.000Z');
    const repeat = nextDue(gap, at('2026-10-24T12:00:00Z'));
    expect(iso(repeat)).toBe('2026-10-25T01:30:00.000Z');
    expect(iso(nextDue(gap, repeat))).toBe('2026-10-26T01:30:00.000Z');
  });
});
