import { describe, expect, it } from 'vitest';
import { describePhoneReading, readPhoneQuery, storedPhone } from './phones';
import { readsAsPhone } from '../read';

describe('phone numbers as people write them', () => {
  it('keeps a stored number’s national significant number and country', () => {
    expect(storedPhone('+234 803 123 4567')).toEqual({ national: '8031234567', country: 'NG' });
    expect(storedPhone('+44 7700 900123')).toEqual({ national: '7700900123', country: 'GB' });
    expect(storedPhone('+1 415 555 0100')).toEqual({ national: '4155550100', country: 'US' });
    // A number without its country code cannot be read: no national form is guessed.
    expect(storedPhone('0803 123 4567')).toBeNull();
    expect(storedPhone('')).toBeNull();
  });

  it.each([
    ['+234 803 123 4567', '2348031234567'],
    ['(+234) 803 123 4567', '2348031234567'],
    ['+234 (0) 803 123 4567', '2348031234567'],
    ['00234 803 123 4567', '2348031234567'],
    ['+234-803-123-4567', '2348031234567'],
  ])('reads %s as the whole international number', (text, whole) => {
    const read = readPhoneQuery(text, ['NG'])!;
    expect(read.international).toBe(whole);
    expect(read.nationals).toEqual([]);
    expect(read.readings[0]).toMatchObject({ country: 'NG', callingCode: '234' });
    expect(read.last4).toBe('4567');
  });

  it("reads a national number in each of the account's countries, and without its trunk prefix", () => {
    const read = readPhoneQuery('0803 123 4567', ['GB', 'NG'])!;
    // Read whole in each country: its national significant number, without the trunk prefix, as typed.
    expect(read.nationals).toEqual(
      expect.arrayContaining(['2348031234567', '44803 1234567'.replace(' ', ''), '23408031234567']),
    );
    expect(read.readings.map((r) => r.country)).toEqual(['GB', 'NG']);
    expect(describePhoneReading(read.readings[1]!)).toBe('a phone number in Nigeria (+234): 0803 123 4567');
    // No country of the account: no number of it could match, and nothing is said of a country.
    const bare = readPhoneQuery('0803.123.4567', [])!;
    expect(bare.nationals).toEqual([]);
    expect(bare.readings).toEqual([]);
  });

  it('is not a phone number when it is not one', () => {
    for (const text of ['Grace', '12345', 'INV-2026-00254', '4567', '+', '()', '1'.repeat(18), '0803 123 4567 ext']) {
      expect(readPhoneQuery(text, ['NG']), text).toBeNull();
    }
  });
});

describe('which searches read the account’s phone countries', () => {
  it('only one that reads as a phone number, not its last four digits', () => {
    for (const q of [
      '0803 123 4567',
      '(+234) 803 123 4567',
      '+234 (0) 803 123 4567',
      '00234 803 123 4567',
      '080.357.9683',
    ])
      expect(readsAsPhone(q), q).toBe(true);
    for (const q of ['4567', 'Okafor', 'José Okafor', 'amara.okafor@example.com', 'INV-2026-00254', 'pay_abc'])
      expect(readsAsPhone(q), q).toBe(false);
  });
});
