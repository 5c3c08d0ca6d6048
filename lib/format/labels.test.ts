import { describe, expect, it } from 'vitest';
import { label, labels } from './labels';

describe('labels', () => {
  it('names every value the seed names', () => {
    expect(
      labels([
        'pending',
        'integrated',
        'payment_link',
        'virtual_account',
        'whatsapp',
        'sms',
        'every_10m',
        'gentle',
      ]).map((l) => l.text),
    ).toEqual([
      'Pending',
      'Integrated',
      'Payment link',
      'Virtual account',
      'WhatsApp',
      'SMS',
      'Every 10 minutes',
      'Gentle',
    ]);
  });

  it('shows any other value verbatim and marks it unknown', () => {
    expect(label('partially_paid')).toEqual({ text: 'partially_paid', known: false });
    expect(label('constructor')).toEqual({ text: 'constructor', known: false });
    expect(label('')).toEqual({ text: '', known: false });
  });
});
