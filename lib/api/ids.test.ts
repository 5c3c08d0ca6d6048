import { describe, expect, it } from 'vitest';
import { isCollectionId, isProviderId, kindOfId, normaliseIdPrefix } from './ids';

describe('id rules', () => {
  it.each(['pay_a', 'pay_tgBQ5mvIyP9QqIdYhsYKUN', 'pay_fault_flaky-x1', `pay_${'a'.repeat(128)}`])(
    'accepts the collection id %s',
    (id) => {
      expect(isCollectionId(id)).toBe(true);
      expect(kindOfId(id)).toBe('collection');
    },
  );

  it.each(['prv_1OOEVJ9kS61uMJsJ', 'prv_A-b_9'])('accepts the provider id %s', (id) => {
    expect(isProviderId(id)).toBe(true);
    expect(kindOfId(id)).toBe('provider');
  });

  it.each([
    ['an empty body', 'pay_'],
    ['a body of 129 characters', `pay_${'a'.repeat(129)}`],
    ['the wrong prefix', 'prv_abc'],
    ['an upper-case prefix', 'PAY_abc'],
    ['a dot', 'pay_a.b'],
    ['a traversal', 'pay_../x'],
    ['an encoded traversal', 'pay_..%2Fx'],
    ['a slash', 'pay_a/b'],
    ['a space', 'pay_a b'],
    ['CRLF', 'pay_a\r\nX-Injected: 1'],
    ['a NUL byte', 'pay_a\u0000'],
    ['a trailing newline', 'pay_abc\n'],
    ['unicode letters', 'pay_ñ'],
  ])('rejects a collection id with %s', (_, id) => {
    expect(isCollectionId(id)).toBe(false);
    expect(kindOfId(id)).toBe(id.startsWith('prv_') ? 'provider' : null);
  });

  it('rejects values that are not strings', () => {
    expect(isCollectionId(undefined)).toBe(false);
    expect(isProviderId(42)).toBe(false);
  });
});

describe('normaliseIdPrefix', () => {
  it.each([
    ['PAY_vzd5E3Qs7hAXEzldEFQJSc', 'pay_vzd5E3Qs7hAXEzldEFQJSc'],
    ['Pay_ABC', 'pay_ABC'],
    ['PRV_acme_01', 'prv_acme_01'],
    ['pay_AlreadyLower', 'pay_AlreadyLower'],
  ])('lowers the prefix of %s and keeps the rest as written', (given, id) => {
    expect(normaliseIdPrefix(given)).toBe(id);
    expect(kindOfId(normaliseIdPrefix(given))).not.toBeNull();
  });

  it.each(['PAYMENT_abc', 'xPAY_abc', 'INV-2026-00042', 'contact_ABC', ''])('leaves %j as it was', (value) => {
    expect(normaliseIdPrefix(value)).toBe(value);
  });
});
