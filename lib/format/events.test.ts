import { describe, expect, it } from 'vitest';
import { asTimeline } from './events';

describe('asTimeline', () => {
  it('orders typed, timed events oldest first and keeps the rest as details', () => {
    const events = [
      { type: 'payment.received', createdAt: '2026-11-20T12:00:00.000Z', method: 'payment_link' },
      { type: 'reminder.sent', createdAt: '2026-11-20T10:00:00.000Z', channel: 'sms' },
    ];
    expect(asTimeline(events)).toEqual([
      { type: 'reminder.sent', at: '2026-11-20T10:00:00.000Z', details: { channel: 'sms' } },
      { type: 'payment.received', at: '2026-11-20T12:00:00.000Z', details: { method: 'payment_link' } },
    ]);
  });

  it('accepts other common key names', () => {
    expect(asTimeline([{ event: 'opened', timestamp: '2026-11-20T10:00:00Z' }])).toEqual([
      { type: 'opened', at: '2026-11-20T10:00:00Z', details: {} },
    ]);
  });

  it.each([
    ['no events', []],
    ['an event without a time', [{ type: 'x' }]],
    ['an event with a bad time', [{ type: 'x', createdAt: 'soon' }]],
    ['a string event', ['reminder']],
    ['a mix', [{ type: 'x', createdAt: '2026-11-20T10:00:00Z' }, { note: 'free text' }]],
  ])('gives up (null) on %s', (_, events) => {
    expect(asTimeline(events)).toBeNull();
  });
});
