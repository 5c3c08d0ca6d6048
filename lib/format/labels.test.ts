import { describe, expect, it } from 'vitest';
import { fieldLabel, label, labels, statusMeaning } from './labels';

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

describe('status meanings', () => {
  it('says what the common statuses mean, and nothing for the rest', () => {
    expect(['completed', 'paid', 'pending', 'on_hold', 'cancelled', 'expired', 'failed'].map(statusMeaning)).toEqual([
      'paid',
      'paid',
      'waiting',
      'waiting',
      'ended',
      'ended',
      'failed',
    ]);
    expect(statusMeaning('partially_paid')).toBeNull();
    expect(statusMeaning('toString')).toBeNull();
    expect(label('on_hold')).toEqual({ text: 'On hold', known: true });
  });
});

describe('fieldLabel', () => {
  it.each([
    ['bankName', 'Bank name'],
    ['accountNumber', 'Account number'],
    ['expiresAt', 'Expires at'],
    ['expires_at', 'Expires at'],
    ['url', 'URL'],
    ['providerID', 'Provider ID'],
    ['IBANCode', 'IBAN code'],
    ['reusable', 'Reusable'],
    ['__', '__'],
  ])('%s → %s', (key, text) => {
    expect(fieldLabel(key)).toBe(text);
  });
});
