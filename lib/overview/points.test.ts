import { describe, expect, it } from 'vitest';
import type { PerDay } from '@/lib/api/overview';
import { chartBucket, chartPoints, peak } from './points';

const row = (date: string, status: string, created: number, completedAmount = 0, currency = 'NGN'): PerDay => ({
  date,
  currency,
  status,
  created,
  completedAmount,
});

describe('chart points', () => {
  const rows = [
    row('2026-11-20', 'pending', 3),
    row('2026-11-20', 'completed', 1, 500),
    row('2026-11-22', 'pending', 2),
    row('2026-11-22', 'pending', 9, 0, 'EUR'),
  ];

  it('has every day of the range, zero where nothing happened, one currency only', () => {
    const { points, series } = chartPoints(rows, {
      currency: 'NGN',
      field: 'created',
      range: { from: '2026-11-19', to: '2026-11-22' },
      bucket: 'day',
    });
    expect(series).toEqual(['pending', 'completed']);
    expect(points).toEqual([
      { date: '2026-11-19', values: {} },
      { date: '2026-11-20', values: { pending: 3, completed: 1 } },
      { date: '2026-11-21', values: {} },
      { date: '2026-11-22', values: { pending: 2 } },
    ]);
    expect(peak(points)).toEqual({ date: '2026-11-20', total: 4 });
  });

  it('leaves out statuses with nothing to draw', () => {
    const { series } = chartPoints(rows, {
      currency: 'NGN',
      field: 'completedAmount',
      range: { from: '2026-11-19', to: '2026-11-22' },
      bucket: 'day',
    });
    expect(series).toEqual(['completed']);
  });

  it('draws all time by month, and by year past ten years', () => {
    expect(chartBucket({ from: '2020-01-01', to: '2026-11-23' }, 'month')).toBe('month');
    expect(chartBucket({ from: '1990-01-01', to: '2026-11-23' }, 'month')).toBe('year');
    const monthly = [row('2014-03-01', 'pending', 2), row('2014-07-01', 'pending', 3), row('2026-11-01', 'pending', 1)];
    const { points } = chartPoints(monthly, {
      currency: 'NGN',
      field: 'created',
      range: { from: '2014-03-01', to: '2026-11-23' },
      bucket: 'year',
    });
    expect(points).toHaveLength(13);
    expect(points[0]).toEqual({ date: '2014-01-01', values: { pending: 5 } });
    expect(points[12]).toEqual({ date: '2026-01-01', values: { pending: 1 } });
    expect(
      chartPoints(monthly, {
        currency: 'NGN',
        field: 'created',
        range: { from: '2026-09-01', to: '2026-11-23' },
        bucket: 'month',
      }).points.map((p) => p.date),
    ).toEqual(['2026-09-01', '2026-10-01', '2026-11-01']);
  });
});
