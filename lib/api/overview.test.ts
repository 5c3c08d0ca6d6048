import { describe, expect, it } from 'vitest';
import { rangesWithActivity } from './overview';

const quiet = [{ created: 0, completedAmount: 0 }];
const busy = [{ created: 2, completedAmount: 0 }];

describe('an overview range that holds nothing', () => {
  it('offers the smallest range reaching back to the latest activity, and all time', () => {
    expect(rangesWithActivity('7d', quiet, '2026-11-10', '2026-11-25')).toEqual(['30d', 'all']);
    expect(rangesWithActivity('30d', [], '2026-09-20', '2026-11-25')).toEqual(['90d', 'all']);
    expect(rangesWithActivity('30d', [], '2025-06-12', '2026-11-25')).toEqual(['all']);
    expect(rangesWithActivity('90d', [], '2026-01-01', '2026-11-25')).toEqual(['all']);
  });

  it('says nothing when the range holds activity, for all time, or when nothing ever happened', () => {
    expect(rangesWithActivity('30d', busy, '2026-11-20', '2026-11-25')).toBeNull();
    expect(rangesWithActivity('all', [], '2025-06-12', '2026-11-25')).toBeNull();
    expect(rangesWithActivity('30d', [], null, '2026-11-25')).toBeNull();
  });
});
