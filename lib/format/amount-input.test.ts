import { describe, expect, it } from 'vitest';
import { readAmountInput } from './amount-input';

const read = (text: string, minorUnits = false, currencies?: string[]) =>
  readAmountInput(text, { name: 'Minimum amount', minorUnits, currencies });

describe('an amount as people type it', () => {
  it('takes grouping separators, spaces, a currency symbol or code', () => {
    for (const text of [
      '1000000',
      '1,000,000',
      '1 000 000',
      "1'000'000",
      '1_000_000',
      '₦1,000,000',
      'NGN 1,000,000',
      '1,000,000 NGN',
      ' 1\u00a0000\u00a0000 ',
    ])
      expect(read(text), text).toEqual({ ok: true, value: 1_000_000 });
    expect(read('-5,000')).toEqual({ ok: true, value: -5000 });
  });

  it('refuses what is not an amount, naming the field', () => {
    expect(read('lots')).toEqual({ ok: false, message: 'Minimum amount must be an amount, like 500,000' });
    expect(read('1e6')).toMatchObject({ ok: false });
    expect(read('1.5')).toEqual({
      ok: false,
      message: "Minimum amount must be a whole amount: the API's amounts have no fraction",
    });
    expect(read('99999999999999999999')).toEqual({ ok: false, message: 'Minimum amount is too large' });
  });

  it('in major units (AMOUNT_MINOR_UNITS=true), reads a fraction into the currency’s minor units', () => {
    expect(read('5,000.50', true, ['NGN'])).toEqual({ ok: true, value: 500_050 });
    expect(read('$12.5', true, ['USD'])).toEqual({ ok: true, value: 1250 });
    expect(read('5,000', true, ['NGN'])).toEqual({ ok: true, value: 500_000 });
    expect(read('1,500', true, ['JPY'])).toEqual({ ok: true, value: 1500 });
    expect(read('1.5', true, ['JPY'])).toMatchObject({ ok: false });
    expect(read('1.5', true)).toEqual({
      ok: false,
      message: 'Minimum amount with a fraction needs one currency chosen (to know its cents)',
    });
  });
});
