import { describe, expect, it } from 'vitest';
import { formatDay, formatDuration, formatRelative, formatUtc } from './dates';

const now = Date.parse('2026-11-22T12:00:00.000Z');

describe('dates', () => {
  it('formats relative times in the largest sensible unit', () => {
    expect(formatRelative('2026-11-22T11:59:30.000Z', now)).toBe('30 seconds ago');
    expect(formatRelative('2026-11-22T09:00:00.000Z', now)).toBe('3 hours ago');
    expect(formatRelative('2026-11-21T12:00:00.000Z', now)).toBe('yesterday');
    expect(formatRelative('2026-10-01T12:00:00.000Z', now)).toBe('last month');
    expect(formatRelative('2026-11-22T14:00:00.000Z', now)).toBe('in 2 hours');
  });

  it('formats exact UTC without milliseconds', () => {
    expect(formatUtc('2026-11-20T16:45:12.345Z')).toBe('2026-11-20 16:45:12 UTC');
    expect(formatUtc('2026-11-20T17:45:12.345+01:00')).toBe('2026-11-20 16:45:12 UTC');
  });

  it('returns what it cannot parse as is', () => {
    expect(formatRelative('not a date', now)).toBe('not a date');
    expect(formatUtc('not a date')).toBe('not a date');
  });

  it('formats spans of time in at most two units', () => {
    expect(formatDuration(45_000)).toBe('45 s');
    expect(formatDuration(12 * 60_000)).toBe('12 min');
    expect(formatDuration(134 * 60_000)).toBe('2 h 14 min');
    expect(formatDuration(3 * 3_600_000)).toBe('3 h');
    expect(formatDuration(76 * 3_600_000)).toBe('3 d 4 h');
  });

  it('formats UTC calendar days and buckets', () => {
    expect(formatDay('2026-11-03')).toBe('3 Nov');
    expect(formatDay('2026-11-01', 'month')).toBe('Nov 2026');
    expect(formatDay('2026-01-01', 'year')).toBe('2026');
    expect(formatDay('2026-11-03', 'full')).toBe('3 Nov 2026');
  });
});
