import { describe, expect, it } from 'vitest';
import { currencyDigits, formatAmount, lineItemTotals } from './money';

describe('formatAmount', () => {
  it('shows the value as given with its code and grouping by default', () => {
    expect(formatAmount({ value: 1250000, currency: 'NGN' })).toBe('NGN 1,250,000');
    expect(formatAmount({ value: 150000, currency: 'USD' })).toBe('USD 150,000');
    expect(formatAmount({ value: -42, currency: 'EUR' })).toBe('-EUR 42');
  });

  it('divides by the currency factor with minor units on', () => {
    expect(formatAmount({ value: 150000, currency: 'USD' }, { minorUnits: true })).toBe('USD 1,500.00');
    expect(formatAmount({ value: 150000, currency: 'JPY' }, { minorUnits: true })).toBe('JPY 150,000');
    expect(formatAmount({ value: 1234567, currency: 'KWD' }, { minorUnits: true })).toBe('KWD 1,234.567');
  });

  it('falls back to code and grouping for a code Intl does not know', () => {
    expect(formatAmount({ value: 1234567, currency: 'POINTS' })).toBe('POINTS 1,234,567');
    expect(formatAmount({ value: 1234567, currency: 'POINTS' }, { minorUnits: true })).toBe('POINTS 12,345.67');
  });

  it('knows minor-unit digits per currency', () => {
    expect([currencyDigits('USD'), currencyDigits('JPY'), currencyDigits('BHD'), currencyDigits('??')]).toEqual([
      2, 0, 3, 2,
    ]);
  });
});

describe('lineItemTotals', () => {
  it('sums quantity × amount per currency', () => {
    const items = [
      { amount: { value: 100, currency: 'USD' }, quantity: 3 },
      { amount: { value: 50, currency: 'EUR' }, quantity: 1 },
      { amount: { value: 25, currency: 'USD' }, quantity: 2 },
    ];
    expect(lineItemTotals(items)).toEqual([
      { currency: 'USD', value: 350 },
      { currency: 'EUR', value: 50 },
    ]);
  });

  it('is empty for no items', () => {
    expect(lineItemTotals([])).toEqual([]);
  });
});
