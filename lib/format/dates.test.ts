import { describe, expect, it } from 'vitest';
import {
  formatDateTime,
  formatDay,
  formatDuration,
  formatRelative,
  formatUtc,
  safeTimeZone,
  yearIn,
  zoneName,
} from './dates';

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

describe('absolute dates', () => {
  it('formats day, month, year and time in the given zone', () => {
    expect(formatDateTime('2025-06-30T13:05:12.000Z')).toBe('30 Jun 2025, 13:05');
    expect(formatDateTime('2025-06-30T13:05:12.000Z', 'Europe/London')).toBe('30 Jun 2025, 14:05');
    expect(formatDateTime('2025-09-01T00:00:09Z', 'UTC', true)).toBe('1 Sep 2025, 00:00:09');
    // Past midnight in Lagos is the next calendar day.
    expect(formatDateTime('2025-12-31T23:30:00Z', 'Africa/Lagos')).toBe('1 Jan 2026, 00:30');
    // A table's dates of this year leave the year out; last year's keep it.
    expect(formatDateTime('2026-11-20T16:45:00Z', 'UTC', false, '2026')).toBe('20 Nov, 16:45');
    expect(formatDateTime('2025-11-20T16:45:00Z', 'UTC', false, '2026')).toBe('20 Nov 2025, 16:45');
    expect(yearIn('UTC', Date.parse('2026-11-20T16:45:00Z'))).toBe('2026');
    expect(yearIn('Pacific/Kiritimati', Date.parse('2026-12-31T12:00:00Z'))).toBe('2027');
  });

  it('falls back to UTC for a zone the runtime does not know, and returns what it cannot parse', () => {
    expect(safeTimeZone('Mars/Olympus_Mons')).toBe('UTC');
    expect(safeTimeZone('')).toBe('UTC');
    expect(safeTimeZone('x'.repeat(100))).toBe('UTC');
    expect(safeTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(formatDateTime('2025-06-30T13:05:12Z', 'Mars/Olympus_Mons')).toBe('30 Jun 2025, 13:05');
    expect(formatDateTime('not a date', 'UTC')).toBe('not a date');
  });

  it('names a zone briefly', () => {
    expect(zoneName('UTC')).toBe('UTC');
    expect(zoneName('Europe/London', Date.parse('2025-06-30T12:00:00Z'))).toBe('BST');
    expect(zoneName('Africa/Lagos', Date.parse('2025-06-30T12:00:00Z'))).toBe('GMT+1');
  });
});
