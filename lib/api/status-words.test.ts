import { describe, expect, it } from 'vitest';
import { meaningOfWord, missingStatuses, statusesMeaning } from './status-words';

const held = [
  { value: 'pending', count: 40 },
  { value: 'completed', count: 120 },
  { value: 'expired', count: 9 },
  { value: 'failed', count: 3 },
];

describe('the words people use for a status', () => {
  it('reads the API’s statuses and the words people say for them', () => {
    expect(meaningOfWord('paid')).toBe('paid');
    expect(meaningOfWord('Paid ')).toBe('paid');
    expect(meaningOfWord('unpaid')).toBe('waiting');
    expect(meaningOfWord('on hold')).toBe('waiting');
    expect(meaningOfWord('cancelled')).toBe('ended');
    expect(meaningOfWord('declined')).toBe('failed');
    expect(meaningOfWord('Abdulahi')).toBeNull();
  });

  it('answers a word with the held statuses that mean it', () => {
    expect(statusesMeaning('paid', held)).toEqual([{ value: 'completed', count: 120 }]);
    expect(statusesMeaning('cancelled', held)).toEqual([{ value: 'expired', count: 9 }]);
    expect(statusesMeaning('pending', held)).toEqual([{ value: 'pending', count: 40 }]);
    expect(statusesMeaning('grace', held)).toEqual([]);
  });

  it('names the asked statuses the data does not hold, with what to ask instead', () => {
    expect(missingStatuses(['paid', 'pending', 'zzz'], held)).toEqual([
      { asked: 'paid', instead: [{ value: 'completed', count: 120 }] },
      { asked: 'zzz', instead: [] },
    ]);
    expect(missingStatuses(['pending'], held)).toEqual([]);
  });
});
