import { describe, expect, it } from 'vitest';
import { formatRelative, formatUtc } from './dates';

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
});
